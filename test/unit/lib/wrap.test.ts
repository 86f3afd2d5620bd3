import {describe, expect, it} from 'vitest'
import {wrapLine, wrapText} from '../../../src/lib/output/wrap.js'

describe('wrapping on word boundaries', () => {
  it('breaks at spaces only, never inside a word, within the width', () => {
    const text =
      "The operator's command line for the Service: customers, KYC/KYB, accounts, quotes, embedded wallets, and a local sandbox"
    const lines = wrapLine(text, 80)
    expect(lines).toEqual([
      "The operator's command line for the Service: customers, KYC/KYB, accounts,",
      'quotes, embedded wallets, and a local sandbox',
    ])
  })

  it('continues under the given column (a hanging indent), keeping aligned gaps', () => {
    const lines = wrapLine(
      '✓ local sandbox     running at http://127.0.0.1:34621 (pid 7401); data dir /tmp/ops2-scratch/data/sandbox readable',
      80,
      20,
    )
    expect(lines).toEqual([
      '✓ local sandbox     running at http://127.0.0.1:34621 (pid 7401); data dir',
      '                    /tmp/ops2-scratch/data/sandbox readable',
    ])
  })

  it('a list of choices too wide for any line breaks after a "|", never inside a value', () => {
    const line = '  <options: CREATED|PENDING|PENDING_AUTHORIZATION|PROCESSING|COMPLETED|REJECTED|FAILED|REFUNDED>'
    expect(wrapLine(line, 40)).toEqual([
      '  <options: CREATED|PENDING|',
      '  PENDING_AUTHORIZATION|PROCESSING|',
      '  COMPLETED|REJECTED|FAILED|REFUNDED>',
    ])
    // a long word that lists nothing (a path) is still left whole for the terminal
    expect(wrapLine('see /a/very/long/path/that/does/not/fit/in/the/width/at/all/x', 30)).toEqual([
      'see',
      '/a/very/long/path/that/does/not/fit/in/the/width/at/all/x',
    ])
  })

  it('an indented line continues at its own indentation; short lines are untouched', () => {
    expect(wrapText('  alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\nshort', 30)).toBe(
      '  alpha beta gamma delta\n  epsilon zeta eta theta iota\n  kappa lambda mu\nshort',
    )
  })

  it('a word wider than the line gets a line of its own, uncut', () => {
    const long = 'x'.repeat(50)
    expect(wrapLine(`see ${long} there`, 30)).toEqual(['see', long, 'there'])
  })
})

describe('help text', () => {
  it('wraps descriptions but never an example, which must paste as one command', async () => {
    const {wrapHelp} = await import('../../../src/lib/help.js')
    const example = `  eval "$(svc sandbox serve --detach --port 0 --json | jq -r '"export SVC_BASE_URL=\\(.url) SVC_TOKEN_ID=\\(.tokenId)"')"`
    const help = [
      'DESCRIPTION',
      '  Listens on 127.0.0.1 under /2025-10-13 with HTTP Basic credentials it prints at start, and keeps its state in one file.',
      '',
      'EXAMPLES',
      example,
    ].join('\n')
    const lines = wrapHelp(help, 80).split('\n')
    expect(lines[1]).toBe('  Listens on 127.0.0.1 under /2025-10-13 with HTTP Basic credentials it prints')
    expect(lines[2]).toBe('  at start, and keeps its state in one file.')
    expect(lines.at(-1)).toBe(example)
  })
})
