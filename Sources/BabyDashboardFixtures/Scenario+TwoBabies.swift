import BabyDashboard

extension Scenario {
  /// The two babies of the app's ContentView preview: Mia (older) feeding now, Leo
  /// recently fed with diaper changes; both with a cached last amount.
  public static let twoBabies = Scenario(
    name: "two-babies",
    summary: "Mia feeding now; Leo fed 1h 10m ago, with diaper changes; amounts cached."
  ) { world in
    let mia = makeBabyProfile(id: world.ids.uuid(1), name: "Mia", createdAt: world.ago(days: 40))
    let leo = makeBabyProfile(id: world.ids.uuid(2), name: "Leo", feedTerm: 9_000, createdAt: world.ago(days: 12))
    return FixtureSet(
      babies: [mia, leo],
      feeds: [
        makeFeedSession(profile: mia, start: world.ago(minutes: 25)),
        makeFeedSession(
          profile: mia, start: world.ago(hours: 3, minutes: 20), end: world.ago(hours: 2, minutes: 55),
          amountValue: 120, amountUnitSymbol: "ml", memoText: "Calm #morning feed"),
        makeFeedSession(
          profile: mia, start: world.ago(hours: 11, minutes: 50), end: world.ago(hours: 11, minutes: 30),
          amountValue: 110, amountUnitSymbol: "mL", memoText: "#night feed, back asleep fast"),
        makeFeedSession(
          profile: leo, start: world.ago(hours: 1, minutes: 10), end: world.ago(minutes: 50),
          amountValue: 4, amountUnitSymbol: "oz", memoText: "Burped twice #bottle"),
        makeFeedSession(
          profile: leo, start: world.ago(hours: 4), end: world.ago(hours: 3, minutes: 40),
          amountValue: 3.5, amountUnitSymbol: "fl oz"),
      ],
      diapers: [
        makeDiaperChange(profile: mia, timestamp: world.ago(minutes: 50), type: .pee),
        makeDiaperChange(profile: mia, timestamp: world.ago(hours: 4), type: .poo),
        makeDiaperChange(profile: leo, timestamp: world.ago(minutes: 40), type: .pee),
        makeDiaperChange(profile: leo, timestamp: world.ago(minutes: 40), type: .poo),
        makeDiaperChange(profile: leo, timestamp: world.ago(hours: 2, minutes: 30), type: .pee),
      ],
      lastFeedAmounts: [
        .init(babyName: "Mia", amountValue: 120, amountUnitSymbol: "mL"),
        .init(babyName: "Leo", amountValue: 4, amountUnitSymbol: "oz"),
      ])
  }
}
