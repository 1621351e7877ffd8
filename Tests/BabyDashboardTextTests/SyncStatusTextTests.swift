import BabyDashboardText
import PlainStore
import Testing

/// Why a phone does not sync, and what to do, in a parent's words: one sentence per reason the
/// carrier can give (the plain folder of babydash is always there, so these are checked here).
@Suite struct SyncStatusTextTests {
  @Test(arguments: [
    (SyncStatus.Carrier.available, "on"),
    (.unavailable(.signedOut), "off — this phone is signed out of iCloud: sign in (Settings, your name) to sync; changes made here wait on this phone meanwhile, and go as soon as it syncs."),
    (.unavailable(.driveOff), "off — iCloud Drive is off for this app: turn it on (Settings, your name, iCloud, iCloud Drive) to sync; changes made here wait on this phone meanwhile, and go as soon as it syncs."),
    (.unavailable(.signedOutOrDriveOff), "off — this phone is signed out of iCloud, or iCloud Drive is off for this app: check Settings, your name, iCloud, iCloud Drive; changes made here wait on this phone meanwhile, and go as soon as it syncs."),
    (.unavailable(.accountUnreadable("iCloud's account token could not be archived: the data couldn't be written")), "stopped — the iCloud account cannot be told from another (iCloud's account token could not be archived: the data couldn't be written); nothing is mixed: changes made here wait on this phone meanwhile, and go as soon as it syncs."),
    (.unavailable(.notResolvedYet), "starting — iCloud is not ready yet; changes made here wait on this phone meanwhile, and go as soon as it syncs."),
    (.unavailable(.unknown), "off — the sync folder cannot be reached; changes made here wait on this phone meanwhile, and go as soon as it syncs."),
    (.accountChanged, "stopped — this phone is signed in to another iCloud account than the one it synced with. Nothing is mixed: this phone keeps its data and its new changes wait here. Sign in again to the account it synced with to sync."),
  ])
  func eachReasonNotToSyncSaysWhyAndWhatToDo(carrier: SyncStatus.Carrier, words: String) {
    #expect(SyncStatusText.syncing(carrier) == words)
  }
}
