//! Reading text a line at a time with a cap on the line length, so that a GUI or a file
//! that sends a huge line (or no newline at all) costs bounded memory.

use std::io::{self, BufRead, Read};

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes; the rest of a
/// longer line is read and dropped. Returns the bytes consumed (0 at the end of input)
/// and whether the line was cut.
pub fn read_line_capped<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<(usize, bool)> {
    buf.clear();
    let mut consumed = input.by_ref().take(max as u64).read_until(b'\n', buf)?;
    if consumed < max || buf.last() == Some(&b'\n') {
        return Ok((consumed, false));
    }
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                consumed += i + 1;
                break;
            }
            None => {
                let n = chunk.len();
                input.consume(n);
                consumed += n;
            }
        }
    }
    Ok((consumed, true))
}

/// Removes a line's ending, `\n` or `\r\n`.
pub fn trim_line_ending(buf: &mut Vec<u8>) {
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_are_trimmed() {
        let mut input = &b"bestmove 7g7f\r\ninfo\nlast"[..];
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        while read_line_capped(&mut input, &mut buf, 100).unwrap().0 > 0 {
            trim_line_ending(&mut buf);
            lines.push(String::from_utf8(buf.clone()).unwrap());
        }
        assert_eq!(lines, ["bestmove 7g7f", "info", "last"]);
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_is_whole() {
        let text = format!("{}\nshort\nlast", "x".repeat(100));
        let mut input = text.as_bytes();
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut input, &mut buf, 10).unwrap(),
            (101, true)
        );
        assert_eq!(buf, b"xxxxxxxxxx");
        assert_eq!(
            read_line_capped(&mut input, &mut buf, 10).unwrap(),
            (6, false)
        );
        assert_eq!(buf, b"short\n");
        assert_eq!(
            read_line_capped(&mut input, &mut buf, 10).unwrap(),
            (4, false)
        );
        assert_eq!(
            read_line_capped(&mut input, &mut buf, 10).unwrap(),
            (0, false)
        );
    }
}
