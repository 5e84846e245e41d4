/// Two records as one JSON object: `head`'s fields, then `body`'s (`JSONValueEncoder` extends
/// an object when a second type encodes into the same keyed container). For a record that
/// puts an identity before a shared shape, such as `scan`'s `faceID` before a face record.
struct FlattenedRecord<Head: Encodable, Body: Encodable>: Encodable {
    var head: Head
    var body: Body

    func encode(to encoder: any Encoder) throws {
        try head.encode(to: encoder)
        try body.encode(to: encoder)
    }
}
