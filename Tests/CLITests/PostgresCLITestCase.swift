import TestSupport
import XCTest

/// A class of CLI tests against a real PostgreSQL: one server per class (started in the class's
/// set-up, about a second, stopped in its tear-down), a new database per test (`server()`).
class PostgresCLITestCase: PostgresServerTestCase {}
