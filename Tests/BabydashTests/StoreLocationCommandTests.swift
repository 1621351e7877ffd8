import Foundation
import Testing

/// Where the store is: never the real default by accident, said in the help, and `--now` moves
/// the clock, not the place the times are shown in.
@Suite struct StoreLocationCommandTests {
  let tool: BabydashProcess

  init() throws { tool = try BabydashProcess() }

  @Test func anEmptyAppGroupVariableIsRefusedLikeAnEmptyOption() throws {
    defer { tool.removeAll() }
    // The default location, were it used, would be under this HOME.
    let home = tool.appGroup.appendingPathComponent("home")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let result = try tool.run(["baby", "add", "Mia"], environment: ["BABYDASH_APP_GROUP": "", "HOME": home.path, "XDG_DATA_HOME": ""])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("babydash: BABYDASH_APP_GROUP is set but empty: give a folder (it is created if missing), or unset it for the default, ~/.local/share/group.sungdoo.babyDashboard"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "nothing was created in the default place")
    let option = try tool.run(["--app-group", "", "baby", "add", "Mia"])
    #expect(option.status == 64)
  }

  @Test func theHelpSaysWhereTheStoreIs() throws {
    defer { tool.removeAll() }
    let help = try tool.run(["help"]).stdout
    #expect(help.contains("Store: DIR/BabyDashboard.store, DIR being --app-group, else $BABYDASH_APP_GROUP, else the default,\n  ~/.local/share/group.sungdoo.babyDashboard"))
  }

  @Test func aFixedNowKeepsTheSystemsZone() throws {
    defer { tool.removeAll() }
    let tokyo = ["TZ": "Asia/Tokyo"]
    #expect(try tool.run(["--now", "2026-11-26T08:00:00Z", "baby", "add", "Mia"], environment: tokyo).status == 0)
    let logged = try tool.run(["--now", "2026-11-26T08:00:00Z", "diaper", "Mia", "pee"], environment: tokyo)
    #expect(logged.stdout == "Logged a pee for Mia at 17:00.\n", "08:00 UTC is 17:00 in Tokyo: \(logged.stderr)")
    let status = try tool.run(["--now", "2026-11-26T08:00:00Z", "status"], environment: tokyo)
    #expect(status.stdout.split(separator: "\n").first?.hasSuffix("Thu 26 Nov 2026 17:00 UTC+09:00") == true)
    // A local --now is read in that zone too.
    #expect(try tool.run(["--now", "2026-11-26T17:05", "diaper", "Mia", "poo"], environment: tokyo).stdout == "Logged a poo for Mia at 17:05.\n")
  }
}
