import CommonBrokerApp
import Foundation

ProcessMemory.useOneMallocArena()

let status = await CommonBrokerMain.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment
)
exit(status)
