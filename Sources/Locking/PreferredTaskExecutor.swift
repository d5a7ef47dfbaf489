/// The executor that the tasks of a piece of work should run on, carried as a task-local so that the
/// layers below need not pass it through: `Task.preferred` reads it. An unstructured `Task {}` does not
/// inherit a task executor preference (SE-0417), but it does inherit task-locals, so every task the
/// market-data path starts under `PreferredTaskExecutor.$current.withValue(…)` (a stream's reader and
/// writer, the hub's upstream reader and commander, its snapshots and reconnects) prefers the same
/// executor. Nil, the default: the global pool, as a plain `Task {}` (tests, `print`, `relay`).
public enum PreferredTaskExecutor {
    @TaskLocal public static var current: (any TaskExecutor)?
}

extension Task where Failure == Never {
    /// A task on `PreferredTaskExecutor.current` (the global pool when there is none). Unlike `Task {}`,
    /// its body is not isolated to the actor that starts it: it must `await` into it.
    @discardableResult
    public static func preferred(priority: TaskPriority? = nil, operation: sending @escaping () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: PreferredTaskExecutor.current, priority: priority, operation: operation)
    }
}
