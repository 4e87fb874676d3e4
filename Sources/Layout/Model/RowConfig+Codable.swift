extension RowConfig: Codable {
    /// The keys: every field by its name, in declaration order, the stack-only ones last — what
    /// the synthesized conformance wrote before they moved into their box (`RowConfig.stackOnly`),
    /// key for key and in the same order (`RowConfigLayoutTests` compares the two).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, size, content, insets, margin, grow, shrink, alignSelf, hidden, separator, stack, sticky
        case minMain, maxMain, minCross, maxCross, background, highlight, text, aspect, stickyOffset
        case rowInsets, scrollOffset, rowSeparator
    }

    /// Reads a config as the synthesized conformance did: every non-optional field required,
    /// every optional one read when present.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing required field or a value of the wrong type.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            type: try c.decode(String.self, forKey: .type), size: try c.decode(RowSize.self, forKey: .size),
            content: try c.decode(Size.self, forKey: .content), insets: try c.decodeIfPresent(Edges.self, forKey: .insets),
            margin: try c.decode(Edges.self, forKey: .margin), grow: try c.decode(Double.self, forKey: .grow),
            shrink: try c.decode(Double.self, forKey: .shrink), alignSelf: try c.decode(AlignSelf.self, forKey: .alignSelf),
            hidden: try c.decode(Bool.self, forKey: .hidden),
            separator: try c.decode(SeparatorOverrides.self, forKey: .separator),
            stack: try c.decodeIfPresent(StackSettings.self, forKey: .stack), sticky: try c.decode(Bool.self, forKey: .sticky),
            minMain: try c.decodeIfPresent(Double.self, forKey: .minMain),
            maxMain: try c.decodeIfPresent(Double.self, forKey: .maxMain),
            minCross: try c.decodeIfPresent(Double.self, forKey: .minCross),
            maxCross: try c.decodeIfPresent(Double.self, forKey: .maxCross),
            background: try c.decodeIfPresent(String.self, forKey: .background),
            highlight: try c.decodeIfPresent(String.self, forKey: .highlight),
            text: try c.decodeIfPresent(TextRun.self, forKey: .text), aspect: try c.decodeIfPresent(Size.self, forKey: .aspect),
            stickyOffset: try c.decodeIfPresent(Double.self, forKey: .stickyOffset),
            rowInsets: try c.decodeIfPresent(Edges.self, forKey: .rowInsets),
            scrollOffset: try c.decodeIfPresent(Double.self, forKey: .scrollOffset),
            rowSeparator: try c.decodeIfPresent(SeparatorOverrides.self, forKey: .rowSeparator))
    }

    /// Writes a config as the synthesized conformance did: the keys in declaration order, an
    /// optional field only when set.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws for a value it cannot write.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(size, forKey: .size)
        try c.encode(content, forKey: .content)
        try c.encodeIfPresent(insets, forKey: .insets)
        try c.encode(margin, forKey: .margin)
        try c.encode(grow, forKey: .grow)
        try c.encode(shrink, forKey: .shrink)
        try c.encode(alignSelf, forKey: .alignSelf)
        try c.encode(hidden, forKey: .hidden)
        try c.encode(separator, forKey: .separator)
        try c.encodeIfPresent(stack, forKey: .stack)
        try c.encode(sticky, forKey: .sticky)
        try c.encodeIfPresent(minMain, forKey: .minMain)
        try c.encodeIfPresent(maxMain, forKey: .maxMain)
        try c.encodeIfPresent(minCross, forKey: .minCross)
        try c.encodeIfPresent(maxCross, forKey: .maxCross)
        try c.encodeIfPresent(background, forKey: .background)
        try c.encodeIfPresent(highlight, forKey: .highlight)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(aspect, forKey: .aspect)
        try c.encodeIfPresent(stickyOffset, forKey: .stickyOffset)
        try c.encodeIfPresent(rowInsets, forKey: .rowInsets)
        try c.encodeIfPresent(scrollOffset, forKey: .scrollOffset)
        try c.encodeIfPresent(rowSeparator, forKey: .rowSeparator)
    }
}
