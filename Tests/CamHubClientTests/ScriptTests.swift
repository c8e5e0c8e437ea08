import Testing
@testable import CamHubClient
