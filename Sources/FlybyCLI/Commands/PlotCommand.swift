enum PlotCommand {
    static let help = "usage: flyby plot TRACE --out FILE.(png|svg)"
    static func run(_ args: [String], _ out: CommandOutput) throws { throw CommandError("todo") }
}
