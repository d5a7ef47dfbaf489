import TerminalKit

/// Which key does what on the watchlist table: a table of named actions and their keys. The defaults
/// are `standard`; the config's `keys` section replaces the keys of the actions it names
/// (`remapping`). The help overlay and the footer read the keys from here, so they show what the
/// user chose. Screens in front of the table (prompts, lists menu, detail, trading screens) keep
/// their own fixed keys; Ctrl-C always quits and Ctrl-Z always suspends.
///
/// A new action is one line in `standard`: its config name, the `WatchlistAction`, its default keys.
public struct KeyBindings: Sendable, Hashable {
    /// One action the user can bind, by the name the config uses.
    public struct Binding: Sendable, Hashable {
        public let name: String
        public let action: WatchlistAction
        public internal(set) var keys: [KeyPress]

        init(_ name: String, _ action: WatchlistAction, _ keys: [KeyPress]) {
            self.name = name
            self.action = action
            self.keys = keys
        }
    }

    /// In the order the help overlay lists them.
    public private(set) var bindings: [Binding]
    private var actions: [KeyPress: WatchlistAction]

    init(_ bindings: [Binding]) {
        self.bindings = bindings
        var actions: [KeyPress: WatchlistAction] = [:]
        for binding in bindings {
            for key in binding.keys where actions[key] == nil { actions[key] = binding.action }
        }
        self.actions = actions
    }

    /// Today's keys (README's keys table).
    public static let standard = KeyBindings([
        Binding("add", .beginAdd, [.character("a"), .character("+")]),
        Binding("remove", .removeSelected, [.character("d"), .delete]),
        Binding("undo", .undoRemove, [.character("u")]),
        Binding("moveDown", .moveDown, [.character("j"), .down]),
        Binding("moveUp", .moveUp, [.character("k"), .up]),
        Binding("pageUp", .pageUp, [.pageUp]),
        Binding("pageDown", .pageDown, [.pageDown]),
        Binding("top", .moveToTop, [.character("g"), .home]),
        Binding("bottom", .moveToBottom, [.character("G"), .end]),
        Binding("sort", .cycleSort, [.character("s")]),
        Binding("filter", .beginFilter, [.character("/")]),
        Binding("theme", .cycleTheme, [.character("T")]),
        Binding("detail", .openDetail, [.enter]),
        Binding("nextList", .nextList, [.tab]),
        Binding("previousList", .previousList, [.backTab]),
        Binding("list1", .showList(0), [.character("1")]),
        Binding("list2", .showList(1), [.character("2")]),
        Binding("list3", .showList(2), [.character("3")]),
        Binding("list4", .showList(3), [.character("4")]),
        Binding("list5", .showList(4), [.character("5")]),
        Binding("list6", .showList(5), [.character("6")]),
        Binding("list7", .showList(6), [.character("7")]),
        Binding("list8", .showList(7), [.character("8")]),
        Binding("list9", .showList(8), [.character("9")]),
        Binding("lists", .openListMenu, [.character("W")]),
        Binding("accounts", .toggleAccounts, [.character("A")]),
        Binding("buy", .trade(.buy), [.character("B")]),
        Binding("sell", .trade(.sell), [.character("S")]),
        Binding("positions", .openPositions, [.character("P")]),
        Binding("orders", .openOrders, [.character("O")]),
        Binding("messages", .toggleMessageLog, [.character("m")]),
        Binding("reverseSort", .reverseSort, [.character("r")]),
        Binding("crossBroker", .toggleCrossBroker, [.character("c")]),
        Binding("alert", .setAlert, [.character("!")]),
        Binding("alertLog", .openAlertLog, [.character("L")]),
        Binding("help", .toggleHelp, [.character("?")]),
        Binding("quit", .quit, [.character("q")]),
        Binding("dismiss", .dismiss, [.escape]),
    ])

    /// Every action's config name, in table order.
    public var names: [String] { bindings.map(\.name) }

    public func action(for key: KeyPress) -> WatchlistAction? {
        actions[key]
    }

    /// The keys of the action named `name` (empty when unbound or unknown).
    public func keys(named name: String) -> [KeyPress] {
        bindings.first { $0.name == name }?.keys ?? []
    }

    public func keys(for action: WatchlistAction) -> [KeyPress] {
        bindings.first { $0.action == action }?.keys ?? []
    }

    /// The action that `key` is bound to, other than the one named `name`, if any.
    public func name(boundTo key: KeyPress, other name: String) -> String? {
        bindings.first { $0.name != name && $0.keys.contains(key) }?.name
    }

    /// These bindings with the keys of the named actions replaced (an empty list unbinds one). Names
    /// must be in `names` and no key may end up on two actions: the config checks both first, so it can
    /// name the line (`AppConfig+Keys`); here an unknown name is ignored and a clash keeps the first.
    public func remapping(_ changes: [(name: String, keys: [KeyPress])]) -> KeyBindings {
        var bindings = bindings
        for change in changes {
            guard let index = bindings.firstIndex(where: { $0.name == change.name }) else { continue }
            bindings[index].keys = change.keys
        }
        return KeyBindings(bindings)
    }
}
