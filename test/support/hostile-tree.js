/**
 * A hostile pull request (issue 34) for the act test of pull-request.yml: the shim project
 * (shim-repository.js) with a script its CMake code runs at configure and at build time, as a
 * fork's author could write. It tries to read the runner's credentials file, write the install
 * cache's `.git-refs` repository, a release build of the cache and the ccache, read the
 * environment of every process of the job up to the runner, leave a process running after the
 * job, and plant in the results it hands back three leg attempts with a `javascript:` run URL and
 * a change point beside the ref run, and valid release records of another commit or pull request
 * under refs/runs; its library, the one the server loads, may carry a file name with Markdown in
 * it (a plug-in's name is the author's to choose). What it managed goes into a report folder the
 * test reads (it must be writable by the user the build runs as).
 * Every target is a path the test made, never the machine's shared install cache: a write the
 * separate OS user should have been refused would otherwise spoil other tests' installs.
 */
import { appendFile, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitShim, git } from './shim-repository.js';

/** The attack, in POSIX sh (best effort, every step recorded, never failing the build: a failed build would hide the attack behind a failed run). */
const HOSTILE_SCRIPT = fileURLToPath(new URL('../fixtures/install/hostile-pull-request/hostile.sh', import.meta.url));

/**
 * Commit the shim as a hostile pull request's head: the shim with the attack in its CMake code.
 * @param {string} work a git work tree
 * @param {Parameters<typeof commitShim>[1] & {targets: {report: string, credentials: string, releaseBuild: string, gitRefs: string, ccache: string, stopPid: number},
 *   planted?: {relPath: string, text: string}[], libraryName?: string}} o
 *   targets: releaseBuild, a release build of the shared install cache; gitRefs, its bare
 *   repositories; ccache, the runner's; stopPid: the test's own process, where the walk up the
 *   job's processes stops; planted: files
 *   the build copies into the results it hands back (relPath under refs/); libraryName: the file
 *   name the server loads the shim's library by (its object name in the profile)
 * @returns {Promise<string>} the commit
 */
export async function commitHostileShim(work, o) {
  await commitShim(work, o);
  const t = o.targets;
  for (const { relPath, text } of o.planted ?? []) {
    await mkdir(dirname(join(work, 'planted', relPath)), { recursive: true });
    await writeFile(join(work, 'planted', relPath), text);
  }
  if (o.libraryName) await appendFile(join(work, 'CMakeLists.txt'), renameLibrary(o.libraryName));
  await copyFile(HOSTILE_SCRIPT, join(work, 'hostile.sh'));
  await writeFile(join(work, 'HOSTILE_TARGETS'), [
    `report='${t.report}'`, `credentials='${t.credentials}'`, `release_build='${t.releaseBuild}'`, `git_refs='${t.gitRefs}'`, `ccache='${t.ccache}'`, `stop_pid='${t.stopPid}'`, '',
  ].join('\n'));
  await appendFile(join(work, 'CMakeLists.txt'), [
    '',
    '# A hostile pull request: its configure and its build run a script of its own.',
    'execute_process(COMMAND sh "${CMAKE_SOURCE_DIR}/hostile.sh" configure)',
    'add_custom_target(hostile ALL COMMAND sh "${CMAKE_SOURCE_DIR}/hostile.sh" build VERBATIM)',
    '',
  ].join('\n'));
  await git(work, 'add', '-A');
  await git(work, 'commit', '-q', '--amend', '--no-edit');
  return git(work, 'rev-parse', 'HEAD');
}

/**
 * What the hostile build recorded in one phase.
 * @param {string} report the report folder
 * @param {'configure'|'build'} phase
 * @returns {Promise<{log: string[], environments: {pid: string, comm: string, text: string}[],
 *   processes: {pid: string, comm: string, uid: string, read: boolean}[], files: string[]}>}
 *   environments: the ones it read; processes: every process of the job it tried, with its
 *   owner's uid; files: the names in the phase's folder. All empty when the phase never ran
 */
export async function readHostileReport(report, phase) {
  const dir = join(report, phase);
  const files = await readdir(dir).catch(() => /** @type {string[]} */ ([]));
  const log = (await readFile(join(dir, 'log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const environments = await Promise.all(files.filter((n) => n.startsWith('environ-')).map(async (n) => {
    const [, pid, ...comm] = n.split('-');
    return { pid, comm: comm.join('-'), text: await readFile(join(dir, n), 'utf8') };
  }));
  const processes = log.flatMap((l) => {
    const m = /^environ (\d+) (.+) uid (\S+) (read|denied)$/.exec(l);
    return m ? [{ pid: m[1], comm: m[2], uid: m[3], read: m[4] === 'read' }] : [];
  });
  return { log, environments, processes, files };
}

/**
 * CMake code that makes the patched server load the shim's library under another file name: a
 * copy of it, named in the server's needed libraries instead (patchelf), installed beside it.
 * @param {string} name a file name (no slash, no double quote, no semicolon)
 * @returns {string}
 */
function renameLibrary(name) {
  if (/["/;$\\]/.test(name)) throw new Error(`library name ${JSON.stringify(name)} would break the CMake code it goes into`);
  return [
    '',
    '# A plug-in named by its author: the server loads the library under this file name.',
    `set(HOSTILE_LIBRARY "${name}")`,
    'add_custom_target(hostile_library_name ALL',
    '  COMMAND ${CMAKE_COMMAND} -E copy "$<TARGET_FILE:answer_cost>" "${HOSTILE_LIBRARY}"',
    '  COMMAND ${PATCHELF} --replace-needed libanswer_cost.so "${HOSTILE_LIBRARY}" mariadbd',
    '  VERBATIM)',
    'add_dependencies(hostile_library_name patched_server)',
    'install(FILES "${CMAKE_BINARY_DIR}/${HOSTILE_LIBRARY}" DESTINATION lib/tagbench-shim)',
    '',
  ].join('\n');
}
