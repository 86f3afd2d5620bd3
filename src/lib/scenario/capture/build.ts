import {createRequire} from 'node:module'
import {moneySteps} from './build-money.js'
import {onboardingSteps} from './build-kyc.js'
import {personalWords} from './fake-words.js'
import {Fakes, type FakeKind} from './fakes.js'
import type {Situation} from './read.js'
import {StepList, type CaptureStep} from './steps.js'

export interface CaptureSource {
  profile: string
  environment: string
  baseUrl: string
  customerId: string
  capturedAt: string
}

export interface BuiltCapture {
  yaml: string
  steps: number
  replaced: FakeKind[]
  notReproduced: string[]
}

/** Situation -> the flow file's text: a header, then the steps, with comments where a state is not reproduced. */
export function buildCapture(s: Situation, source: CaptureSource, seed: string): BuiltCapture {
  // No fake may contain a word of the original personal data, even by coincidence.
  const fakes = new Fakes(seed, personalWords([s]))
  const out = new StepList()
  onboardingSteps(s, fakes, out)
  moneySteps(s, fakes, out)
  const replaced = fakes.replacedKinds()
  const header = [
    `Captured by \`svc flow capture\`: the situation of ${source.customerId}`,
    `from profile ${source.profile} (${source.environment}, ${source.baseUrl}) at ${source.capturedAt}.`,
    'It rebuilds that situation in a sandbox with its controls (name and account-number suffixes, funding).',
    `Personal data replaced by fakes: ${replaced.length ? replaced.join(', ') : 'none'}.`,
    'Document files were not read: each is a placeholder of the same kind.',
    ...(out.notReproduced.length
      ? ['Not reproduced (see the comments below):', ...out.notReproduced.map((n) => `  - ${n}`)]
      : ['Every observed state is reproduced.']),
    Object.keys(out.sandbox).length
      ? `Replay: svc flow run <this file> --local   (its sandbox: block applies to --local runs only; elsewhere set it on the sandbox first)`
      : `Replay: svc flow run <this file> --local   (or --profile <a sandbox>)`,
  ]
  const yaml = toYaml(header, `Captured ${source.customerId}`, out.steps, out.trailing(), out.sandbox)
  return {yaml, steps: out.steps.length, replaced, notReproduced: out.notReproduced}
}

function toYaml(
  header: string[],
  name: string,
  steps: CaptureStep[],
  trailing: string,
  sandbox: Record<string, unknown>,
): string {
  // Loaded here only: the yaml package stays out of the commands that do not write flows.
  const {Document} = createRequire(import.meta.url)('yaml') as typeof import('yaml')
  const doc = new Document({
    name,
    ...(Object.keys(sandbox).length ? {sandbox} : {}),
    steps: steps.map(({comment: _c, ...rest}) => rest),
  })
  doc.commentBefore = header.map((l) => ` ${l}`).join('\n')
  const seq = doc.get('steps', true) as import('yaml').YAMLSeq
  seq.items.forEach((node, i) => {
    const comment = steps[i].comment
    if (comment)
      (node as import('yaml').Node).commentBefore = comment
        .split('\n')
        .map((l) => ` ${l}`)
        .join('\n')
    ;(node as import('yaml').Node).spaceBefore = i > 0
  })
  // Short lists (svc argv) read best on one line.
  for (const node of seq.items) {
    const svc = (node as import('yaml').YAMLMap).get('svc', true) as import('yaml').YAMLSeq | undefined
    if (svc) svc.flow = true
  }
  if (trailing)
    doc.comment = trailing
      .split('\n')
      .map((l) => ` ${l}`)
      .join('\n')
  return doc.toString({lineWidth: 0})
}
