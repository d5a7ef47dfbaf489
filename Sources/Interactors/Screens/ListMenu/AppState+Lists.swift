import Domain
import Foundation
import Stores

/// The lists screen's part of the update: switching lists (Tab, 1…9) and the lists menu (`W`) with its
/// name prompt and delete confirmation. Its modes are `InputMode.listMenu`, `.namingList` and
/// `.confirmingDelete`; its view is `ListMenuOverlay`, its keys `KeyMap.listMenuAction`.
extension AppState {
    mutating func performListAction(_ action: WatchlistAction, at now: Date) -> [AppEffect] {
        switch action {
        case .nextList: return showList(at: (currentListIndex + 1) % lists.count, at: now)
        case .previousList: return showList(at: (currentListIndex + lists.count - 1) % lists.count, at: now)
        case .showList(let index):
            guard lists.indices.contains(index) else {
                say(.info, "There is no list \(index + 1); W makes one", at: now)
                return []
            }
            return showList(at: index, at: now)
        case .openListMenu:
            message = nil
            mode = .listMenu(selected: currentListIndex)
        case .closeListMenu:
            mode = .normal
        case .menuMove(let offset):
            if case .listMenu(let selected) = mode {
                mode = .listMenu(selected: min(max(0, selected + offset), lists.count - 1))
            }
        case .menuShowSelected:
            guard case .listMenu(let selected) = mode else { return [] }
            mode = .normal
            return showList(at: selected, at: now)
        case .menuNewList:
            mode = .namingList(.create, text: "", error: nil)
        case .menuRenameList:
            guard case .listMenu(let selected) = mode, lists.indices.contains(selected) else { return [] }
            mode = .namingList(.rename(lists[selected].name), text: lists[selected].name, error: nil)
        case .menuDeleteList:
            guard case .listMenu(let selected) = mode, lists.indices.contains(selected) else { return [] }
            guard lists.count > 1 else {
                say(.warning, WatchlistBook.EditError.lastList.description, at: now)
                return []
            }
            mode = .confirmingDelete(list: lists[selected].name)
        case .menuReorder(let offset):
            guard case .listMenu(let selected) = mode, lists.indices.contains(selected) else { return [] }
            return [.persist(.moveList(lists[selected].name, by: offset))]
        case .confirmDelete:
            guard case .confirmingDelete(let name) = mode else { return [] }
            return [.persist(.deleteList(name))]
        case .cancelDelete:
            guard case .confirmingDelete(let name) = mode else { return [] }
            mode = .listMenu(selected: lists.firstIndex { $0.name == name } ?? 0)
        default:
            return []
        }
        return []
    }

    /// Shows the list at `index`: the feed follows its symbols instead, and a snapshot fills its rows.
    private mutating func showList(at index: Int, at now: Date) -> [AppEffect] {
        guard lists.indices.contains(index), index != currentListIndex || rows.isEmpty else { return [] }
        let before = followed
        currentListName = lists[index].name
        selectedKey = nil
        selectedIndex = 0
        forgetQuotesNotShown()
        rebuildRows()
        say(.info, "\(currentListName): \(symbols.count == 1 ? "1 symbol" : "\(symbols.count) symbols")", at: now)
        let effects = followCurrentSymbols()
        let new = symbols.filter { !before.contains($0) }
        return effects + (new.isEmpty ? [] : [.fetchSnapshot(new)])
    }

    /// A name is checked here first, so a bad one keeps the prompt open at once; the store checks it
    /// again against the file, where another window may have taken it.
    mutating func submitListName(_ text: String, for purpose: ListNaming) -> [AppEffect] {
        let others: [String]
        if case .rename(let old) = purpose { others = lists.map(\.name).filter { $0 != old } } else { others = lists.map(\.name) }
        switch NamedWatchlist.validateName(text, existing: others) {
        case .failure(let error):
            mode = .namingList(purpose, text: text, error: error.description)
            return []
        case .success(let name):
            switch purpose {
            case .create: return [.persist(.createList(name))]
            case .rename(let old): return [.persist(.renameList(old, to: name))]
            }
        }
    }

}
