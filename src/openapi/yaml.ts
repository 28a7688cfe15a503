/**
 * JSON data as YAML 1.2, for `openapi --format yaml`: block mappings and sequences, and every
 * string double-quoted with JSON's escapes, which YAML's double-quoted style shares (YAML 1.2,
 * section 7.3.1). So no string can be read back as a number, a boolean or null, and no YAML
 * library is needed at run time. Plain keys where they cannot be misread, quoted otherwise.
 */
export function toYaml(value: unknown): string {
  return `${block(value, '').replace(/^\n/, '')}\n`;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$.-]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

function scalar(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '.nan';
  if (typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(String(value));
}

function key(name: string): string {
  return PLAIN_KEY.test(name) && !RESERVED.test(name) ? name : JSON.stringify(name);
}

/** `value` written after a key or a dash: a scalar on the same line, a collection on the next lines. */
function block(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((item) => `\n${indent}-${block(item, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([name, item]) => `\n${indent}${key(name)}:${block(item, `${indent}  `)}`).join('');
  }
  return ` ${scalar(value)}`;
}
