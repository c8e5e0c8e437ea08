import NIOSSL

/// How a room checks a `wss://` hub's certificate (unused for `ws://`): against
/// the system's certificate authorities by default, against those of a PEM file
/// (a private CA, or the hub's own self-signed certificate), or not at all
/// (tests only: the connection is encrypted but the hub is not verified).
public struct HubTLS: Hashable, Sendable {
    /// A PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// false: any certificate is accepted.
    public var verifiesCertificate: Bool

    public init(caFile: String? = nil, verifiesCertificate: Bool = true) {
        self.caFile = caFile
        self.verifiesCertificate = verifiesCertificate
    }

    /// The system's certificate authorities, the hub's name checked.
    public static let system = HubTLS()

    /// swift-nio-ssl's client configuration that says the same.
    var configuration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.trustRoots = .file(caFile) }
        if !verifiesCertificate { configuration.certificateVerification = .none }
        return configuration
    }
}
