// The tests of this target arrive with its issue; SwiftPM needs a source file meanwhile.
import Testing
