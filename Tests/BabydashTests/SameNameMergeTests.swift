import Foundation
import Testing

/// Two phones that each add "Ava" before they see each other: the merge report and `check` name
/// the clash (case and Unicode form aside), and `baby merge` joins the two in one commit that
/// both phones fold the same way.
@Suite struct SameNameMergeTests {
  @Test func twoPhonesThatEachAddedAvaAreToldAndBabyMergeJoinsThem() throws {
    let phones = try TwoPhonesTests.Phones()
    defer { phones.removeAll() }
    let (mom, dad, momSync, dadSync) = (phones.mom, phones.dad, phones.momSync, phones.dadSync)
    func onMom(at now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
      try mom.run(["--now", now, "--sync-folder", momSync.path] + arguments, environment: ["BABYDASH_DEVICE_NAME": "Mom's phone"])
    }
    func onDad(at now: String, _ arguments: [String]) throws -> BabydashProcess.Result {
      try dad.run(["--now", now, "--sync-folder", dadSync.path] + arguments, environment: ["BABYDASH_DEVICE_NAME": "Dad's phone"])
    }
    #expect(try onMom(at: "2026-03-10T06:00:00Z", ["baby", "add", "Ava"]).status == 0)
    #expect(try onMom(at: "2026-03-10T07:30:00Z", ["feed", "log", "Ava", "--start", "07:00", "--end", "07:20", "--amount", "100ml"]).status == 0)
    #expect(try onDad(at: "2026-03-10T06:05:00Z", ["baby", "add", "ava"]).status == 0)
    #expect(try onDad(at: "2026-03-10T08:00:00Z", ["diaper", "ava", "pee", "--at", "07:50"]).status == 0)
    #expect(try onDad(at: "2026-03-10T09:30:00Z", ["feed", "log", "ava", "--start", "09:00", "--end", "09:15", "--amount", "90ml"]).status == 0)
    try TwoPhonesTests.carry(from: dadSync, to: momSync)
    try TwoPhonesTests.carry(from: momSync, to: dadSync)

    let merged = try onMom(at: "2026-03-10T10:00:00Z", ["sync", "now"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.contains("From Dad's phone: 1 feed and 1 diaper added; ava added. 2 babies are named Ava ("), "\(merged.stdout)")
    #expect(merged.stdout.contains("2 babies are named Ava ("), "\(merged.stdout)")
    #expect(merged.stdout.contains("if they are one baby, `babydash baby merge "), "\(merged.stdout)")
    let check = try onMom(at: "2026-03-10T10:00:00Z", ["check"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.contains("warning: 2 babies are named Ava ("), "\(check.stdout)")

    let list = try onMom(at: "2026-03-10T10:00:00Z", ["baby", "list"]).stdout.split(separator: "\n")
    #expect(list.count == 2)
    let ids = list.map { String($0.split(separator: " ").last!) }
    let (mine, dads) = (String(ids[0].lowercased().prefix(8)), String(ids[1].lowercased().prefix(8)))
    // Without --yes, what would happen, and nothing written.
    let asked = try onMom(at: "2026-03-10T10:00:00Z", ["baby", "merge", dads, mine])
    #expect(asked.status == 65)
    #expect(
      asked.stderr == "babydash: merging ava (\(dads)) into Ava (\(mine)) moves 1 feed and 1 diaper change onto Ava (\(mine)) "
        + "and removes ava (\(dads)). Run again with --yes to merge.\n", "\(asked.stderr)")
    let done = try onMom(at: "2026-03-10T10:00:00Z", ["baby", "merge", dads, mine, "--yes"])
    #expect(done.status == 0, "\(done.stderr)")
    #expect(done.stdout == "Merged ava (\(dads)) into Ava (\(mine)): moved 1 feed and 1 diaper change; removed ava (\(dads)).\n")
    #expect(try onMom(at: "2026-03-10T10:01:00Z", ["check"]).stdout.contains("warning") == false)

    // Dad's phone folds the one commit the same way: one Ava, with every event.
    try TwoPhonesTests.carry(from: momSync, to: dadSync)
    #expect(try onDad(at: "2026-03-10T10:05:00Z", ["sync", "now"]).status == 0)
    let dadList = try onDad(at: "2026-03-10T10:05:00Z", ["baby", "list"]).stdout
    #expect(dadList.split(separator: "\n").count == 1 && dadList.hasPrefix("Ava "), "\(dadList)")
    let history = try onDad(at: "2026-03-10T10:05:00Z", ["history"]).stdout
    #expect(history == (try onMom(at: "2026-03-10T10:05:00Z", ["history"]).stdout))
    #expect(history.components(separatedBy: "Ava").count - 1 == 3, "\(history)")
  }
}
