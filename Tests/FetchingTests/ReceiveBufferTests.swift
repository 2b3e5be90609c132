import Fetching
import Foundation
import TestSupport
import XCTest

/// curl receives into a 4 KB buffer per transfer (issue 21: 480 transfers at once held 7.7 MB
/// of 16 KB buffers): bodies of every size around that buffer's edges, plain and compressed,
/// with and without a length, arrive byte for byte, many at once.
final class ReceiveBufferTests: XCTestCase {
    /// Sizes at and around multiples of the buffer, and a few large ones.
    private let sizes = [0, 1, 4_095, 4_096, 4_097, 8_191, 8_192, 8_193, 3 * 4_096 + 1, 65_537, 300_007, 900_001]

    /// Deterministic bytes that do not compress (a body as large on the wire as decoded).
    private func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    private func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let dir = TemporaryDirectory()
        let input = dir.path + "/body"
        FileManager.default.createFile(atPath: input, contents: Data(bytes))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-c", input]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return [UInt8](out)
    }

    func testBodiesAroundTheBufferSizeArriveWhole() throws {
        let server = try LoopbackHTTPServer()
        var expected: [Int64: [UInt8]] = [:]
        var requests: [FetchRequest] = []
        for (i, size) in sizes.enumerated() {
            // Plain with a length, plain without one (the body ends at the close), and gzip of
            // text that compresses (a decoded body several buffers long from one wire buffer).
            let plain = noise(size, seed: UInt64(i))
            let text = Array(String(repeating: "<item>buffer edge \(i)</item>\n", count: size / 28 + 1).utf8.prefix(size))
            server.route("/plain\(i)", ScriptedResponse(headers: [("Content-Type", "application/octet-stream")], body: plain))
            server.route("/close\(i)", ScriptedResponse(headers: [("Content-Type", "application/octet-stream")], body: plain,
                                                        sendContentLength: false))
            server.route("/gz\(i)", .gzip(try gzip(text)))
            for (k, (path, body)) in [("/plain\(i)", plain), ("/close\(i)", plain), ("/gz\(i)", text)].enumerated() {
                let id = Int64(i * 3 + k)
                expected[id] = body
                requests.append(FetchRequest(id: id, url: server.url(path)))
            }
        }
        let fetcher = try Fetcher(limits: testLimits(maxBody: 1 << 21, maxWire: 1 << 21, maxInFlight: 12, maxPerHost: 12))
        var seen = 0
        fetcher.fetchAll(requests) { request, result in
            seen += 1
            guard case .success(let response) = result else { return XCTFail("\(request.url): \(result)") }
            XCTAssertEqual(response.status, 200, request.url)
            XCTAssertEqual(response.body.count, expected[request.id]?.count, request.url)
            XCTAssertTrue(response.body == expected[request.id], "\(request.url): the body differs")
        }
        XCTAssertEqual(seen, requests.count)
    }

    /// Requests that cannot start (a bad URL, a refused scheme) among ones that can: each gets
    /// its own answer once, in a list read in place.
    func testUnstartableRequestsAmongOthersEachGetTheirOwnAnswer() throws {
        let server = try LoopbackHTTPServer()
        var requests: [FetchRequest] = []
        for i in 0..<40 {
            switch i % 4 {
            case 0: requests.append(FetchRequest(id: Int64(i), url: "not a url \(i)"))
            case 1: requests.append(FetchRequest(id: Int64(i), url: "gopher://127.0.0.1/\(i)"))
            default:
                server.route("/ok\(i)", .text("fine \(i)"))
                requests.append(FetchRequest(id: Int64(i), url: server.url("/ok\(i)")))
            }
        }
        let fetcher = try Fetcher(limits: testLimits(maxInFlight: 3, maxPerHost: 2))
        var answers: [Int64: Result<FetchResponse, FetchError>] = [:]
        fetcher.fetchAll(requests) { request, result in
            XCTAssertNil(answers[request.id], "answered twice: \(request.id)")
            answers[request.id] = result
        }
        XCTAssertEqual(answers.count, 40)
        for i in 0..<40 {
            let result = try XCTUnwrap(answers[Int64(i)])
            switch (i % 4, result) {
            case (0, .failure), (1, .failure): break
            case (2, .success(let r)), (3, .success(let r)): XCTAssertEqual(r.body, Array("fine \(i)".utf8))
            default: XCTFail("request \(i): \(result)")
            }
        }
        XCTAssertLessThanOrEqual(fetcher.statistics.peakInFlight, 2, "one host: its limit of 2")
    }
}
