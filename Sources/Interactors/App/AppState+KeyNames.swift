extension AppState {
    /// How messages name the key of an action (`KeyBindings` name): its first key as bound now, so a
    /// remapped key is what the message tells the user to press.
    func keyLabel(_ action: String) -> String {
        settings.keys.keys(named: action).first.map(KeyName.display) ?? "(unbound \(action))"
    }
}
