import type {FlowResult, Progress, StepResult} from './run.js'

/** JUnit XML for CI: one testsuite per flow, one testcase per step (failure with expected/actual, skipped after it). */
export function junitXml(result: FlowResult): string {
  const failures = result.steps.filter((s) => s.status === 'failed').length
  const skipped = result.steps.filter((s) => s.status === 'skipped').length
  const secs = (ms: number) => (ms / 1000).toFixed(3)
  const cases = result.steps.map((s) => {
    const open = `    <testcase name="${xml(`${s.index}. ${s.name}`)}" classname="${xml(result.name)}" file="${xml(result.file)}" line="${s.line}" time="${secs(s.durationMs)}"`
    if (s.status === 'skipped')
      return `${open}>\n      <skipped message="not run: an earlier step failed"/>\n    </testcase>`
    if (s.status === 'failed' && s.failure) {
      const body = `expected: ${JSON.stringify(s.failure.expected, null, 2)}\nactual: ${JSON.stringify(s.failure.actual, null, 2)}`
      return `${open}>\n      <failure message="${xml(s.failure.message)}" type="StepFailed">${xml(body)}</failure>\n    </testcase>`
    }
    return `${open}/>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc flow run" tests="${result.steps.length}" failures="${failures}" skipped="${skipped}" time="${secs(result.durationMs)}">`,
    `  <testsuite name="${xml(result.name)}" tests="${result.steps.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${secs(result.durationMs)}" timestamp="${new Date(Date.now() - result.durationMs).toISOString()}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}

/** Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry (ANSI escapes ...). */
function xml(text: string): string {
  return text
    .replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

interface Stream {
  write(text: string): unknown
  isTTY?: boolean
}

type Style = (s: string) => string

/**
 * Step-by-step progress on stderr: on a terminal a spinner line rewritten in place and a ✓/✗ per
 * finished step; off a terminal one plain line per finished step (CI logs stay readable).
 */
export function progressReporter(
  stream: Stream,
  style: {green: Style; red: Style; dim: Style; bold: Style},
): Progress & {stop(): void} {
  const tty = Boolean(stream.isTTY)
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
  let timer: NodeJS.Timeout | undefined
  const stop = () => {
    if (timer) clearInterval(timer)
    timer = undefined
  }
  const label = (i: number, total: number, name: string) => `[${i}/${total}] ${name}`
  return {
    start(index, total, name) {
      if (!tty) return
      let f = 0
      const draw = () => stream.write(`\r\x1b[K${style.dim(frames[f++ % frames.length])} ${label(index, total, name)}`)
      draw()
      timer = setInterval(draw, 100)
      timer.unref()
    },
    end(r: StepResult, total: number) {
      stop()
      const time = style.dim(`(${r.durationMs} ms)`)
      if (tty) {
        const mark = r.status === 'passed' ? style.green('✓') : style.red('✗')
        stream.write(`\r\x1b[K${mark} ${label(r.index, total, r.name)} ${time}\n`)
      } else
        stream.write(
          `${r.status === 'passed' ? 'ok  ' : 'FAIL'} ${label(r.index, total, r.name)} (${r.durationMs} ms)\n`,
        )
      if (r.failure) {
        stream.write(`     ${r.failure.message}\n`)
        stream.write(`     expected: ${oneLine(r.failure.expected)}\n     actual:   ${oneLine(r.failure.actual)}\n`)
      }
    },
    stop,
  }
}

function oneLine(v: unknown): string {
  const s = JSON.stringify(v) ?? 'undefined'
  return s.length > 600 ? s.slice(0, 600) + '…' : s
}
