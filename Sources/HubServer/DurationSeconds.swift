extension Duration {
    /// The duration in seconds, as the hub's clock and measurements count it.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
