extension String {
    /// The string followed by spaces up to `width` characters (unchanged when already that long).
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Spaces, then the string, up to `width` characters: for right-aligned numbers.
    func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
