// Two builds of one file set:
// - `swift build -Xswiftc -DFUZZING --sanitize=fuzzer --sanitize=address --product feeds-fuzz`
//   (tools/fuzz.sh): libFuzzer's own main drives `LLVMFuzzerTestOneInput`, the target chosen by
//   FEEDS_FUZZ_TARGET.
// - a plain build (what `swift build` does for the whole package): a replayer,
//   `feeds-fuzz TARGET FILE...`, that runs inputs through the same checks (the tests replay
//   Tests/Fixtures/fuzz through the ContractChecks library directly).
import ContractChecks
import Foundation

#if FUZZING

private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FEEDS_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        fatalError("set FEEDS_FUZZ_TARGET to one of: \(names)")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try target.run(bytes)
    } catch {
        fatalError("\(error)")  // libFuzzer saves the input as a crash artifact
    }
    return 0
}
#else
@main
struct Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: feeds-fuzz \(names) FILE...\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("feeds-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            do {
                try target.run([UInt8](data))
            } catch {
                print("\(path): \(error)")
                exit(1)
            }
        }
        print("\(arguments.count - 1) inputs passed the \(name) checks")
    }
}
#endif
