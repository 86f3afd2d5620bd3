const ANSI = /\x1b\[[0-9;]*m/g

/** Printed width, without colour codes. */
export const visibleWidth = (s: string): number => [...s.replace(ANSI, '')].length

/**
 * Word-wraps one line to `width` columns: breaks only at spaces, continuation lines indented by
 * `hang` spaces (the column the text starts in), so a terminal never cuts a word in two
 * (`submi`/`ssion`). A single word wider than the room left (a long path) gets a line of its own
 * and is left for the terminal to fold rather than cut here, unless it is a list of choices.
 */
export function wrapLine(line: string, width: number, hang = leadingSpaces(line)): string[] {
  if (!width || width < 20 || visibleWidth(line) <= width) return [line]
  const indent = leadingSpaces(line)
  // Words and the runs of spaces between them: spaces that align columns are kept within a line.
  const parts = line.slice(indent).split(/( +)/)
  // [gap, word] pairs; a word too wide for any line that lists choices (`A|B|C`, help's enums) may
  // also break after each "|", so the terminal never folds it inside a value.
  const tokens: Array<[string, string]> = []
  for (let i = -1; i < parts.length; i += 2) {
    const [gap, word] = [i < 0 ? '' : parts[i], parts[i + 1] ?? '']
    const pieces = visibleWidth(word) > width - hang && word.includes('|') ? word.split(/(?<=\|)/) : [word]
    pieces.forEach((piece, k) => tokens.push([k ? '' : gap, piece]))
  }
  const lines: string[] = []
  let current = ' '.repeat(indent) + tokens[0][1]
  for (const [gap, word] of tokens.slice(1)) {
    if (visibleWidth(current) + gap.length + visibleWidth(word) > width && current.trim()) {
      lines.push(current)
      current = ' '.repeat(hang) + word
    } else current += gap + word
  }
  lines.push(current)
  return lines
}

/** Every line of `text` wrapped (see wrapLine), each continuing under its own indentation. */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((l) => wrapLine(l, width))
    .join('\n')
}

function leadingSpaces(s: string): number {
  return s.length - s.trimStart().length
}
