import CamHubClient

/// The tests' raw HTTP client is the one `camhub bench` uses.
public typealias RawHTTP = CamHubClient.RawHTTP
