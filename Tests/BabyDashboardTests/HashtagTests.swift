import BabyDashboard
import Testing

@Suite struct HashtagTests {
  @Test(arguments: [
    ("#night feed", ["night"]),
    ("Fussy #Night, then #night again and #NIGHT", ["night"]),
    ("#gas #burp #gas", ["gas", "burp"]),
    ("#밤 수유 #잠", ["밤", "잠"]),
    ("#ночь и #Утро", ["ночь", "утро"]),
    ("#2am #3am", ["2am", "3am"]),
    ("#a#b", ["a", "b"]),
    ("#under_score", ["under"]),
    ("end. #tag.", ["tag"]),
    ("# not a tag, ## neither", []),
    ("no tags at all", []),
    ("", []),
    ("#Café #café", ["café"]),
  ])
  func hashtagsAreLettersAndDigitsCaseInsensitiveEachOnceInOrder(text: String, expected: [String]) {
    #expect(Hashtag.extract(from: text) == expected)
  }

  @Test func aFeedsHashtagsComeFromItsMemo() {
    let feed = FeedSession(profileID: nil, startTime: .init(timeIntervalSince1970: 0), memoText: "#Spit #up #spit")
    #expect(feed.hashtags == ["spit", "up"])
    #expect(FeedSession(profileID: nil, startTime: .init(timeIntervalSince1970: 0)).hashtags == [])
  }

  @Test func aTypedTagNormalisesWithOrWithoutTheHash() {
    #expect(Hashtag.normalize("#Night") == "night")
    #expect(Hashtag.normalize("NIGHT") == "night")
  }
}
