import AUHostCLI
import Foundation

exit(AUHostCLI.run(Array(CommandLine.arguments.dropFirst())))
