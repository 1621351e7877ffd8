// The Foundation declarations that the domain's Apple branches outside its Apple folder use
// (BabyDashboard's app group container), and nothing else, as Apple's documentation declares
// them. swift-corelibs-foundation has none of them; Scripts/check-apple-stub.sh type-checks the
// BabyDashboard module, as Apple platforms compile it, against this file and proves each
// declaration is used and is missing on Linux.
//
// Each declaration ends with `// uses: TEXT | probe: EXPRESSION`: TEXT must appear in the Apple
// code, and EXPRESSION must NOT compile against Linux's Foundation alone.
// Bodies are never run: this file is only type-checked.
import Foundation

// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
extension FileManager {
  func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { nil }  // uses: containerURL(forSecurityApplicationGroupIdentifier: | probe: FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "")
}
