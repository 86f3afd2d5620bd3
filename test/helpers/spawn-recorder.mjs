// Preloaded into `svc mcp` by tests (NODE_OPTIONS="--import <this file's URL>", SVC_SPAWN_LOG=<file>):
// appends the arguments of every child process it spawns, one JSON line each, so a test can tell
// a tool run in the server's own process from one run as a child `svc`.
import childProcess from 'node:child_process'
import {appendFileSync} from 'node:fs'

const spawn = childProcess.spawn
childProcess.spawn = function recordedSpawn(command, args, ...rest) {
  if (process.env.SVC_SPAWN_LOG) appendFileSync(process.env.SVC_SPAWN_LOG, JSON.stringify(args ?? []) + '\n')
  return spawn.call(this, command, args, ...rest)
}
