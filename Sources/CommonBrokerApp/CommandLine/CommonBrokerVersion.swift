public enum CommonBrokerVersion {
    public static let string = "0.1.0"
}
