import CSQLite

// Thin wrappers over the SQLite C calls FlybyTiles uses: one Swift function per C call, a failing
// result code turned into a `SQLiteError` with SQLite's own message here. Nothing else in the
// module calls CSQLite.

struct SQLiteError: Error { var message: String }

/// A database opened read-only (`SQLITE_OPEN_READONLY`): nothing Flyby does can change the file.
final class SQLiteDatabase {
    let handle: OpaquePointer

    /// `sqlite3_open_v2` with `SQLITE_OPEN_READONLY`.
    init(readOnly path: String) throws(SQLiteError) {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(db)
            throw SQLiteError(message: message)
        }
        handle = db
    }

    /// `sqlite3_close`.
    deinit { sqlite3_close(handle) }

    /// `sqlite3_prepare_v2`.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(message: String(cString: sqlite3_errmsg(handle))) }
        return SQLiteStatement(statement, database: handle)
    }
}

/// A prepared statement.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: OpaquePointer

    init(_ handle: OpaquePointer, database: OpaquePointer) { self.handle = handle; self.database = database }

    /// `sqlite3_finalize`.
    deinit { sqlite3_finalize(handle) }

    /// `sqlite3_reset` (ready to run again with new bindings).
    func reset() { sqlite3_reset(handle) }

    /// `sqlite3_bind_int64` (parameters are 1-based).
    func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        guard sqlite3_bind_int64(handle, index, value) == SQLITE_OK else { throw SQLiteError(message: String(cString: sqlite3_errmsg(database))) }
    }

    /// `sqlite3_step`: true when a row is ready, false when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw SQLiteError(message: String(cString: sqlite3_errmsg(database)))
    }

    /// `sqlite3_column_type` is `SQLITE_NULL`.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// `sqlite3_column_int64`.
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// `sqlite3_column_text` as a String (nil for NULL).
    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: p)
    }

    /// `sqlite3_column_bytes`: the size of a blob or text value, before reading it.
    func byteCount(_ column: Int32) -> Int { Int(sqlite3_column_bytes(handle, column)) }

    /// `sqlite3_column_blob` copied out (empty for NULL or zero bytes).
    func blob(_ column: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(handle, column))
        guard n > 0, let p = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: p, count: n))
    }
}
