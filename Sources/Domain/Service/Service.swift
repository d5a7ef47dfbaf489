import Locking

/// A typed async function from a domain input to a domain output (design doc 003, "Service"): what a
/// screen or store is given instead of a broker, so it is tested against `Mock` before any HTTP exists.
/// The output usually carries the failure, `Result<Order, BrokerError>`, so callers handle it as a value.
///
/// ```swift
/// typealias PlaceOrder = Service<OrderRequest, Result<Order, BrokerError>>
/// let mock = PlaceOrder.Mock(stubOutput: .failure(.orderRejected(reason: "market closed")))
/// let ticket = OrderTicket(place: mock.service)
/// ```
public struct Service<Input: Sendable, Output: Sendable>: Sendable {
    private let perform: @Sendable (Input) async -> Output

    public init(_ perform: @escaping @Sendable (Input) async -> Output) {
        self.perform = perform
    }

    public func callAsFunction(_ input: Input) async -> Output {
        await perform(input)
    }
}

extension Service where Input == Void {
    public func callAsFunction() async -> Output {
        await perform(())
    }
}

extension Service {
    /// A stand-in that answers every call with `stubOutput` and remembers the inputs it was called with.
    /// `validationHook` runs on each call before it answers, to check the caller's state mid-call (e.g. that
    /// a ticket shows "sending…" while the order is out). Safe to share between tasks.
    public final class Mock: Sendable {
        private struct State {
            var stubOutput: Output
            var inputs: [Input] = []
            var validationHook: (@Sendable (Input) -> Void)?
        }

        private let state: Locked<State>

        public init(stubOutput: Output, validationHook: (@Sendable (Input) -> Void)? = nil) {
            state = Locked(State(stubOutput: stubOutput, validationHook: validationHook))
        }

        /// What every call returns; change it between calls to script a sequence.
        public var stubOutput: Output {
            get { state.withLock { $0.stubOutput } }
            set { state.withLock { $0.stubOutput = newValue } }
        }

        /// Runs with each input before the call answers.
        public var validationHook: (@Sendable (Input) -> Void)? {
            get { state.withLock { $0.validationHook } }
            set { state.withLock { $0.validationHook = newValue } }
        }

        /// Every input so far, oldest first.
        public var inputs: [Input] { state.withLock { $0.inputs } }

        /// The box to hand to the code under test.
        public var service: Service {
            Service { input in self.answer(input) }
        }

        private func answer(_ input: Input) -> Output {
            let (output, hook) = state.withLock { state in
                state.inputs.append(input)
                return (state.stubOutput, state.validationHook)
            }
            // Outside the lock, so a hook may read the mock (its inputs) without deadlocking.
            hook?(input)
            return output
        }
    }
}
