package fastjson

// Rest returns the unread input, read-only. A caller that knows the shape of
// the next value can scan it from Rest faster than the pull reader does and
// then move past it with Advance; it keeps within DepthLeft itself.
func (l *Lexer) Rest() []byte { return l.data[l.pos:] }

// Advance moves the offset n bytes on, past a value the caller read from
// Rest. n is clamped to what is left.
func (l *Lexer) Advance(n int) {
	l.pos += max(0, min(n, len(l.data)-l.pos))
}

// DepthLeft returns how many more levels of nesting the depth limit allows.
func (l *Lexer) DepthLeft() int { return l.maxDepth - l.depth }
