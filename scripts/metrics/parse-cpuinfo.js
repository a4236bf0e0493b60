/**
 * /proc/cpuinfo parsing (pure): the CPU model and whether the kernel runs under a hypervisor.
 */

/**
 * @param {string} text content of /proc/cpuinfo
 * @returns {{model: string|null, processors: number, hypervisor: boolean}} model from the first
 *   `model name` (x86) or `Model`/`Hardware`/`cpu model` line (arm, mips), null when none;
 *   processors = `processor` entries; hypervisor = the x86 `hypervisor` flag is set (a VM)
 */
export function parseCpuinfo(text) {
  let model = null;
  let processors = 0;
  let hypervisor = false;
  for (const line of text.split('\n')) {
    const m = /^([^:]+?)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, key, value] = m;
    if (key === 'processor') processors += 1;
    else if (model === null && ['model name', 'Model', 'Hardware', 'cpu model'].includes(key) && value !== '') model = value.trim();
    else if (key === 'flags' && value.split(' ').includes('hypervisor')) hypervisor = true;
  }
  return { model, processors, hypervisor };
}
