import Foundation

/// Every file under `folder` (paths relative to it) with its bytes: two written sites compared
/// file by file.
public func folderContents(_ folder: String) throws -> [String: Data] {
    var out: [String: Data] = [:]
    for path in FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
            out[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
        }
    }
    return out
}
