import {InputError, type FieldError} from '../errors.js'
import type {Tool} from './catalogue.js'

export type ToolArguments = Record<string, unknown>

/**
 * A tool call's arguments checked against the tool's schema, every bad field named at once, before
 * any command runs. Numbers are taken where a flag wants text (`limit: 20`): the command parses
 * them as it parses its own flags, with the same messages.
 */
export function checkArguments(tool: Tool, input: ToolArguments | undefined): ToolArguments {
  const args = input ?? {}
  const errors: FieldError[] = []
  const schema = tool.inputSchema
  for (const name of schema.required ?? [])
    if (args[name] === undefined || args[name] === null) errors.push({field: name, message: 'is required'})
  for (const [name, value] of Object.entries(args)) {
    const prop = schema.properties[name]
    if (!prop) {
      errors.push({field: name, message: `is not an input of ${tool.name}`})
      continue
    }
    if (value === undefined || value === null) continue
    const problem = typeProblem(prop, value)
    if (problem) errors.push({field: name, message: problem})
    // A positional value that starts with `-` would be read as a flag.
    else if (tool.args.includes(name) && String(value).startsWith('-'))
      errors.push({field: name, message: 'must not start with "-"'})
  }
  if (errors.length) throw new InputError(errors, undefined, 'Fix the fields listed; nothing was sent.')
  return args
}

function typeProblem(prop: Record<string, unknown>, value: unknown): string | undefined {
  if (prop.type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false'
  if (prop.type === 'array') {
    if (!Array.isArray(value)) return 'must be an array of strings'
    for (const v of value) {
      const p = scalarProblem(prop.items as Record<string, unknown>, v)
      if (p) return p
    }
    return undefined
  }
  return scalarProblem(prop, value)
}

function scalarProblem(prop: Record<string, unknown>, value: unknown): string | undefined {
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) return 'must be a string'
  const choices = prop.enum as string[] | undefined
  if (choices && !choices.includes(String(value))) return `must be one of ${choices.join(', ')}`
  return undefined
}

/**
 * The command line a call stands for: the command's words, its arguments in order, then each
 * flag as `--name=value` (the `=` keeps a value that starts with `-` a value). The server's own
 * flags (--json, --dry-run, --yes, the profile) are added by whoever runs it.
 */
export function toArgv(tool: Tool, args: ToolArguments): string[] {
  const argv = tool.command.id.split(':')
  for (const name of tool.args) if (args[name] !== undefined && args[name] !== null) argv.push(String(args[name]))
  for (const [name, flag] of Object.entries(tool.flags)) {
    const value = args[name]
    if (value === undefined || value === null) continue
    if (flag.type === 'boolean') {
      if (value === true) argv.push(`--${name}`)
    } else if (Array.isArray(value)) for (const v of value) argv.push(`--${name}=${String(v)}`)
    else argv.push(`--${name}=${String(value)}`)
  }
  return argv
}

/** The arguments that make a plan: everything but `confirm`, with unset values dropped. */
export function planArguments(args: ToolArguments): ToolArguments {
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => k !== 'confirm' && v !== undefined && v !== null))
}
