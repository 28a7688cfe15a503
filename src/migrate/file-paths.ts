/**
 * Code that moves into another file keeps the paths it had. `__dirname`, `__filename` and `import.meta`'s
 * `dirname`, `filename` and `url` name the file they are written in, so in an endpoint file they would name the
 * endpoint's folder: `res.sendFile(path.join(__dirname, '../public/app.html'))` would look for the file in the
 * wrong place. Each becomes its old file's again, through one constant at the top of the new file.
 */
import path from 'node:path';
import MagicString from 'magic-string';
import { isReference, isRequire, parseModule, visit, type Node } from './syntax';

/**
 * `text`, the module written to `file` with code from `from`, reading `from`'s paths where it read its own.
 * `esModule`: it is written with `import`; `runsAsEsModule`: it runs as one (TypeScript written with `import`
 * may run as CommonJS, with `__dirname`).
 */
export function keepFilePaths(
  text: string,
  file: string,
  from: string,
  { esModule, runsAsEsModule }: { esModule: boolean; runsAsEsModule: boolean },
): string {
  const ast = parseModule(file, text);
  const uses: { node: Node; parent: Node | undefined; what: 'dirname' | 'filename' | 'url' }[] = [];
  const names = new Set<string>();
  visit(ast.program, (node, parent) => {
    if (node.type === 'Identifier') {
      names.add(node.name);
      if ((node.name === '__dirname' || node.name === '__filename') && parent && isReference(node, parent))
        uses.push({ node, parent, what: node.name === '__dirname' ? 'dirname' : 'filename' });
    } else if (
      node.type === 'MemberExpression' &&
      node.object.type === 'MetaProperty' &&
      node.object.meta.name === 'import' &&
      !node.computed &&
      node.property.type === 'Identifier' &&
      /^(dirname|filename|url)$/.test(node.property.name)
    ) {
      uses.push({ node, parent, what: node.property.name as 'dirname' | 'filename' | 'url' });
    }
  });
  if (uses.length === 0) return text;

  const body = ast.program.body;
  const isImport = (statement: Node) =>
    statement.type === 'ImportDeclaration' ||
    (statement.type === 'VariableDeclaration' &&
      statement.declarations.every((d) => d.init != null && isRequire(d.init)));
  let pathName = body.flatMap((statement) => pathImportName(statement))[0];
  const lines: string[] = [];
  if (pathName === undefined) {
    pathName = fresh('path', names);
    lines.push(
      esModule ? `import ${pathName} from 'node:path';` : `const ${pathName} = require('node:path');`,
    );
  }
  const dirName = fresh('fromDir', names);
  const relativeDir = slashes(path.relative(path.dirname(file), path.dirname(from))) || '.';
  const here = runsAsEsModule ? 'import.meta.dirname' : '__dirname';
  lines.push(
    `// ${slashes(path.basename(from))}'s folder: the code below was written there and reads its paths from it.`,
    `const ${dirName} = ${pathName}.join(${here}, '${relativeDir}');`,
  );
  const edit = new MagicString(text);
  const fileExpression = `${pathName}.join(${dirName}, '${path.basename(from)}')`;
  for (const { node, parent, what } of uses) {
    const replacement =
      what === 'dirname'
        ? dirName
        : what === 'filename'
          ? fileExpression
          : `new URL('${slashes(path.relative(path.dirname(file), from))}', import.meta.url).href`;
    const shorthand = parent?.type === 'ObjectProperty' && parent.shorthand;
    edit.overwrite(
      node.start!,
      node.end!,
      shorthand ? `${(node as { name: string }).name}: ${replacement}` : replacement,
    );
  }
  const lastImport = [...body].reverse().find(isImport);
  if (lastImport) edit.appendLeft(lastImport.end!, `\n${lines.join('\n')}`);
  else edit.prepend(`${lines.join('\n')}\n`);
  return edit.toString();
}

/** The name a top-level statement imports Node's path module as, if it does. */
function pathImportName(statement: Node): string[] {
  const isPath = (specifier: string) => specifier === 'node:path' || specifier === 'path';
  if (statement.type === 'ImportDeclaration' && isPath(statement.source.value)) {
    return statement.specifiers
      .filter((s) => s.type === 'ImportDefaultSpecifier' || s.type === 'ImportNamespaceSpecifier')
      .map((s) => s.local.name);
  }
  if (statement.type !== 'VariableDeclaration') return [];
  return statement.declarations.flatMap((d) =>
    d.id.type === 'Identifier' && d.init != null && isRequire(d.init) && isPath(d.init.arguments[0].value)
      ? [d.id.name]
      : [],
  );
}

function fresh(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name}${n}`)) return `${name}${n}`;
}

function slashes(file: string): string {
  return file.split(path.sep).join('/');
}
