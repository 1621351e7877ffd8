@testable import BabyDashboard
import Foundation
import Testing

@Suite struct AppGroupTests {
  @Test func debugAndReleaseBuildsUseTheirOwnGroup() throws {
    #expect(AppGroup.release.identifier == "group.sungdoo.babyDashboard")
    #expect(AppGroup.debug.identifier == "group.sungdoo.babyDashboard.dev")
    #if DEBUG
      #expect(AppGroup.current == .debug)
    #else
      #expect(AppGroup.current == .release)
    #endif
  }

  @Test func anArgumentOverridesTheEnvironmentAndThePlatformPlace() throws {
    let url = try AppGroup.release.resolve(
      argument: "/tmp/from-argument", environment: ["BABYDASH_APP_GROUP": "/tmp/from-env", "HOME": "/home/a"])
    #expect(url.path == "/tmp/from-argument")
  }

  @Test func theEnvironmentVariableOverridesThePlatformPlace() throws {
    let url = try AppGroup.release.resolve(argument: nil, environment: ["BABYDASH_APP_GROUP": "/tmp/from-env", "HOME": "/home/a"])
    #expect(url.path == "/tmp/from-env")
    let empty = try AppGroup.release.resolve(argument: "", environment: ["BABYDASH_APP_GROUP": "/tmp/from-env"])
    #expect(empty.path == "/tmp/from-env")
  }

  @Test func aTildeInAnOverrideMeansHome() throws {
    let url = try AppGroup.release.resolve(argument: "~/groups/x", environment: ["HOME": "/home/a"])
    #expect(url.path == "/home/a/groups/x")
  }

  #if !canImport(Darwin)
    @Test func onLinuxTheGroupLivesUnderXDGDataHome() throws {
      let url = try AppGroup.debug.resolve(argument: nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
      #expect(url.path == "/data/group.sungdoo.babyDashboard.dev")
    }

    @Test func onLinuxWithoutXDGDataHomeTheGroupLivesUnderLocalShare() throws {
      let url = try AppGroup.release.resolve(argument: nil, environment: ["HOME": "/home/a"])
      #expect(url.path == "/home/a/.local/share/group.sungdoo.babyDashboard")
      let relative = try AppGroup.release.resolve(argument: nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/home/a"])
      #expect(relative.path == "/home/a/.local/share/group.sungdoo.babyDashboard")
    }
  #endif

  @Test func aMissingGroupContainerIsAnErrorNamingTheGroupNotAFallbackFolder() throws {
    #expect(throws: AppGroupError(identifier: "group.sungdoo.babyDashboard")) {
      try AppGroup.release.groupContainer(nil)
    }
    #expect(AppGroupError(identifier: "group.x").description.contains("app group 'group.x'"))
    let container = URL(fileURLWithPath: "/containers/group.x", isDirectory: true)
    #expect(try AppGroup(identifier: "group.x").groupContainer(container) == container)
  }

  @Test func theStoreTheKeyValuesAndTheWidgetCacheLiveInTheGroupFolder() throws {
    let folder = URL(fileURLWithPath: "/g", isDirectory: true)
    #expect(AppGroup.storeURL(in: folder).path == "/g/BabyDashboard.store")
    #expect(AppGroup.release.keyValueFileURL(in: folder).path == "/g/Preferences/group.sungdoo.babyDashboard.json")
    #expect(AppGroup.widgetSnapshotsURL(in: folder).path == "/g/WidgetCache/snapshots.json")
  }
}
