import AUHostCLI
import Foundation

// A reader that goes away (a control client leaving without its replies, a closed pipe on
// standard output) makes a write fail with EPIPE, which the writer reports; it never kills
// the process.
signal(SIGPIPE, SIG_IGN)
exit(AUHostCLI.run(Array(CommandLine.arguments.dropFirst())))
