import Stores
import TerminalKit

/// The lists menu (`W`): move the highlight, show a list, create, rename, delete (after asking) and
/// reorder lists. Edits go to the store as requests; the store's answer comes back through `saved` or
/// `refused`, so a refused name keeps its prompt open with what was typed.
public struct ListMenuScreen: Sendable, Hashable {
    /// The highlighted list, by index into the lists.
    public private(set) var selected: Int
    public private(set) var step: Step = .choosing

    public enum Step: Sendable, Hashable {
        case choosing
        /// Typing a name, to create a list or to rename one.
        case naming(ListNaming, TextPrompt)
        /// Asking before this list is deleted.
        case confirmingDelete(String)
    }

    public init(selected: Int, step: Step = .choosing) {
        self.selected = selected
        self.step = step
    }

    public enum Action: Sendable, Hashable {
        case move(by: Int)
        /// Enter: show the highlighted list.
        case showSelected
        case newList, renameList, deleteList
        /// `J` / `K`: move the highlighted list down or up.
        case reorder(by: Int)
        case undo
        case close
        case confirmDelete, cancelDelete
        case prompt(TextPrompt.Action)
    }

    public func action(for key: KeyPress) -> Action? {
        switch step {
        case .naming: return TextPrompt.action(for: key).map(Action.prompt)
        case .confirmingDelete:
            switch key {
            case .character("y"), .character("Y"): return .confirmDelete
            case .character("n"), .character("N"), .escape: return .cancelDelete
            default: return nil
            }
        case .choosing:
            switch key {
            case .character("j"), .down: return .move(by: 1)
            case .character("k"), .up: return .move(by: -1)
            case .enter: return .showSelected
            case .character("n"), .character("a"): return .newList
            case .character("r"): return .renameList
            case .character("d"), .delete: return .deleteList
            case .character("J"): return .reorder(by: 1)
            case .character("K"): return .reorder(by: -1)
            case .character("u"): return .undo
            case .character("W"), .character("q"), .escape: return .close
            default: return nil
            }
        }
    }

    public mutating func update(_ action: Action, lists: [NamedWatchlist]) -> [ScreenRequest] {
        selected = min(max(0, selected), max(0, lists.count - 1))
        switch action {
        case .move(let offset):
            selected = min(max(0, selected + offset), lists.count - 1)
        case .showSelected:
            return [.close, .showList(selected)]
        case .newList:
            step = .naming(.create, TextPrompt(limit: 100))
        case .renameList:
            guard lists.indices.contains(selected) else { return [] }
            step = .naming(.rename(lists[selected].name), TextPrompt(text: lists[selected].name, limit: 100))
        case .deleteList:
            guard lists.indices.contains(selected) else { return [] }
            guard lists.count > 1 else { return [.say(.warning, WatchlistBook.EditError.lastList.description)] }
            step = .confirmingDelete(lists[selected].name)
        case .reorder(let offset):
            guard lists.indices.contains(selected) else { return [] }
            return [.persist(.moveList(lists[selected].name, by: offset))]
        case .undo:
            return [.undo]
        case .close:
            return [.close]
        case .confirmDelete:
            guard case .confirmingDelete(let name) = step else { return [] }
            return [.persist(.deleteList(name))]
        case .cancelDelete:
            guard case .confirmingDelete(let name) = step else { return [] }
            step = .choosing
            selected = lists.firstIndex { $0.name == name } ?? selected
        case .prompt(let edit):
            return updateName(edit, lists: lists)
        }
        return []
    }

    /// A name is checked here first, so a bad one keeps the prompt open at once; the store checks it
    /// again against the file, where another window may have taken it.
    private mutating func updateName(_ action: TextPrompt.Action, lists: [NamedWatchlist]) -> [ScreenRequest] {
        guard case .naming(let purpose, var prompt) = step else { return [] }
        switch action {
        case .cancel:
            // Back to the menu it came from.
            step = .choosing
            return []
        case .submit:
            var others = lists.map(\.name)
            if case .rename(let old) = purpose { others.removeAll { $0 == old } }
            switch NamedWatchlist.validateName(prompt.text, existing: others) {
            case .failure(let error):
                step = .naming(purpose, prompt.refused(error.description))
                return []
            case .success(let name):
                switch purpose {
                case .create: return [.persist(.createList(name))]
                case .rename(let old): return [.persist(.renameList(old, to: name))]
                }
            }
        case .type, .backspace:
            prompt.edit(action)
            step = .naming(purpose, prompt)
            return []
        }
    }

    /// The store saved an edit this menu asked for; `lists` is every list after it. A new list is shown
    /// at once (the menu closes); otherwise the highlight follows the list that was edited.
    mutating func saved(_ edit: WatchlistEdit, outcome: WatchlistEditOutcome, lists: [NamedWatchlist]) -> [ScreenRequest] {
        switch edit {
        case .createList:
            guard let name = outcome.savedName, let index = lists.firstIndex(where: { $0.name == name }) else { return [.close] }
            return [.close, .showList(index)]
        case .renameList(let old, _):
            let name = outcome.savedName ?? old
            step = .choosing
            selected = lists.firstIndex { $0.name == name } ?? selected
        case .deleteList:
            step = .choosing
            selected = min(outcome.deletedIndex ?? 0, lists.count - 1)
        case .moveList(let name, _):
            selected = lists.firstIndex { $0.name == name } ?? selected
        case .add, .remove, .restore, .restoreList:
            selected = min(selected, lists.count - 1)
        }
        return []
    }

    /// The store refused an edit this menu asked for: a name stays in its prompt with why, anything else
    /// is said on the status line.
    mutating func refused(_ edit: WatchlistEdit, reason: String, lists: [NamedWatchlist]) -> [ScreenRequest] {
        switch edit {
        case .createList, .renameList:
            if case .naming(let purpose, let prompt) = step {
                step = .naming(purpose, prompt.refused("not saved: \(reason)"))
                return []
            }
            return [.say(.error, "Could not save the list: \(reason)")]
        case .deleteList(let name):
            step = .choosing
            selected = lists.firstIndex { $0.name == name } ?? selected
            return [.say(.error, "Could not delete list \(name): \(reason)")]
        case .moveList(let name, _):
            return [.say(.error, "Could not move list \(name): \(reason)")]
        case .add, .remove, .restore, .restoreList:
            return []
        }
    }
}

/// What a list name being typed is for.
public enum ListNaming: Sendable, Hashable {
    case create
    case rename(String)
}
