import Fetching
import Foundation
import TestSupport
import XCTest

let testUserAgent = "feeds/0.0-test (+https://example.invalid/feeds)"

/// Short limits so every test ends within seconds.
func testLimits(total: Duration = .seconds(5), maxBody: Int = 1 << 20, maxWire: Int = 1 << 20,
                maxRedirects: Int = 5, maxInFlight: Int = 8, maxPerHost: Int = 8) -> FetchLimits {
    FetchLimits(userAgent: testUserAgent, connectTimeout: .seconds(2), totalTimeout: total,
                maxBodyBytes: maxBody, maxWireBytes: maxWire, maxRedirects: maxRedirects,
                maxInFlight: maxInFlight, maxPerHost: maxPerHost)
}

/// One request through a fresh Fetcher.
func fetch(_ url: String, limits: FetchLimits = testLimits(), etag: String? = nil, lastModified: String? = nil,
           headers: [String: String] = [:], allowFile: Bool = false) throws -> Result<FetchResponse, FetchError> {
    let fetcher = try Fetcher(limits: limits)
    return fetcher.fetch(FetchRequest(id: 1, url: url, etag: etag, lastModified: lastModified,
                                      headers: headers, allowFile: allowFile))
}

/// The response, or a test failure naming the error.
func response(_ result: Result<FetchResponse, FetchError>, file: StaticString = #filePath, line: UInt = #line) throws -> FetchResponse {
    switch result {
    case .success(let response): return response
    case .failure(let error):
        XCTFail("expected a response, got: \(error.localizedDescription)", file: file, line: line)
        throw error
    }
}

/// The error, or a test failure naming the response.
func failure(_ result: Result<FetchResponse, FetchError>, file: StaticString = #filePath, line: UInt = #line) -> FetchError? {
    switch result {
    case .success(let response):
        XCTFail("expected an error, got status \(response.status)", file: file, line: line)
        return nil
    case .failure(let error): return error
    }
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
