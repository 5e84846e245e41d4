/// Two records as one JSON object: `head`'s fields, then `body`'s (`JSONValueEncoder` extends
/// an object when a second type encodes into the same keyed container). For a record that
/// puts an identity before a shared shape, such as `scan`'s `faceID` before a face record.
package struct FlattenedRecord<Head: Encodable, Body: Encodable>: Encodable {
    package var head: Head
    package var body: Body

    package init(head: Head, body: Body) {
        self.head = head
        self.body = body
    }

    package func encode(to encoder: any Encoder) throws {
        try head.encode(to: encoder)
        try body.encode(to: encoder)
    }
}
