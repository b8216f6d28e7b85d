import Foundation

/// Standard base64 for encoded words and MIME; kept behind one name so header code reads simply.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
