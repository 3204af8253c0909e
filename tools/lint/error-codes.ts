import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

/** Where a code is raised: `file:line` and how it was found. */
export interface RaisedCode {
  code: string;
  at: string;
  via: string;
}

/** The result of a scan: codes found, and places whose code could not be read statically (they fail the check). */
export interface ErrorCodeScan {
  codes: RaisedCode[];
  unresolved: { at: string; expression: string }[];
}

const ROOT_ERROR = 'DomainError';

/** String literals of an expression (`cond ? 'a' : 'b'`, `'a' as const`…); null when it holds anything else that could be a code. */
function literalsOf(node: ts.Expression): string[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) return literalsOf(node.expression);
  if (ts.isConditionalExpression(node)) {
    const [a, b] = [literalsOf(node.whenTrue), literalsOf(node.whenFalse)];
    return a && b ? [...a, ...b] : null;
  }
  return null;
}

/** String literals of a type node (`'a' | 'b'`, an alias of such a union, resolved through `aliases`). */
function literalTypesOf(node: ts.TypeNode | undefined, aliases: Map<string, ts.TypeNode>, seen = new Set<string>()): string[] | null {
  if (!node) return null;
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return [node.literal.text];
  if (ts.isUnionTypeNode(node)) {
    const parts = node.types.map((type) => literalTypesOf(type, aliases, seen));
    return parts.every((part) => part !== null) ? (parts as string[][]).flat() : null;
  }
  if (ts.isParenthesizedTypeNode(node)) return literalTypesOf(node.type, aliases, seen);
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && !seen.has(node.typeName.text)) {
    seen.add(node.typeName.text);
    return literalTypesOf(aliases.get(node.typeName.text), aliases, seen);
  }
  return null;
}

interface ClassInfo {
  name: string;
  base: string | null;
  /** The code the class always raises (a literal first argument of `super`), or the codes of a literal-union parameter. */
  codes: string[];
  /** Index of the constructor parameter that is the code (forwarded to `super`), when callers choose it. */
  codeParameter: number | null;
  at: string;
  unresolved: string | null;
}

/**
 * Reads every code a `DomainError` can be raised with, statically, from the TypeScript sources given:
 * the literal first argument of `super(...)` in classes extending DomainError (directly or not), the
 * literal first argument of `new DomainError(...)` / `new <Subclass>(...)` where the subclass forwards its
 * first parameter as the code, and the literal unions such parameters are typed with (`code: 'a' | 'b'`,
 * or an alias of such a union), and the `code` of per-IP limit policies (object literals with `perMinute`
 * and `code`). A code that is none of these (a variable) is reported in `unresolved`.
 */
export function scanErrorCodes(root: string, files: readonly string[]): ErrorCodeScan {
  const sources = files.map((file) => ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.ES2022, true));
  const aliases = new Map<string, ts.TypeNode>();
  const classes = new Map<string, ClassInfo>();
  const where = (node: ts.Node) => `${node.getSourceFile().fileName}:${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}`;

  for (const source of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
      if (ts.isClassDeclaration(node) && node.name) {
        const heritage = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        const base = heritage && ts.isIdentifier(heritage.expression) ? heritage.expression.text : null;
        classes.set(node.name.text, { name: node.name.text, base, codes: [], codeParameter: null, at: where(node), unresolved: null });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const isDomainError = (name: string | null, depth = 0): boolean =>
    name === ROOT_ERROR || (name !== null && depth < 20 && isDomainError(classes.get(name)?.base ?? null, depth + 1));

  // What each subclass passes as the code.
  for (const source of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name && isDomainError(classes.get(node.name.text)?.base ?? null)) {
        const info = classes.get(node.name.text) as ClassInfo;
        const constructor = node.members.find(ts.isConstructorDeclaration);
        const superCall = constructor?.body?.statements
          .map((statement) => (ts.isExpressionStatement(statement) && ts.isCallExpression(statement.expression) ? statement.expression : null))
          .find((call) => call?.expression.kind === ts.SyntaxKind.SuperKeyword);
        const first = superCall?.arguments[0];
        if (!constructor) {
          info.codeParameter = 0; // inherits the base constructor: the caller's first argument
        } else if (first && info.base === ROOT_ERROR) {
          const literals = literalsOf(first);
          if (literals) info.codes.push(...literals);
          else if (ts.isIdentifier(first)) {
            const index = constructor.parameters.findIndex((parameter) => ts.isIdentifier(parameter.name) && parameter.name.text === first.text);
            if (index === -1) info.unresolved = first.getText();
            else {
              info.codeParameter = index;
              const typed = literalTypesOf(constructor.parameters[index].type, aliases);
              if (typed) info.codes.push(...typed);
            }
          } else info.unresolved = first.getText();
        }
        // A subclass of a subclass raises its base's codes (ValidationFailedError's `validation_error`…): resolved below.
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const codes: RaisedCode[] = [];
  const unresolved: ErrorCodeScan['unresolved'] = [];
  /** The class that decides the code: the first DomainError subclass of the chain passing it to DomainError. */
  const codeOwner = (name: string): ClassInfo | null => {
    let info = classes.get(name) ?? null;
    for (let depth = 0; info && info.base !== ROOT_ERROR && depth < 20; depth += 1) info = classes.get(info.base ?? '') ?? null;
    return info;
  };
  for (const info of classes.values()) {
    if (!isDomainError(info.base)) continue;
    for (const code of info.codes) codes.push({ code, at: info.at, via: `class ${info.name}` });
    if (info.unresolved) unresolved.push({ at: info.at, expression: info.unresolved });
  }

  // Call sites: `new DomainError('code', …)` and `new Subclass('code', …)` where the subclass forwards the code.
  for (const source of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const name = node.expression.text;
        let index: number | null = null;
        if (name === ROOT_ERROR) index = 0;
        else if (isDomainError(classes.get(name)?.base ?? null)) {
          const own = classes.get(name) as ClassInfo;
          const owner = own.codeParameter === 0 && own.base !== ROOT_ERROR ? codeOwner(name) : own;
          index = owner && owner.base === ROOT_ERROR ? owner.codeParameter : null;
        }
        const argument = index === null ? undefined : node.arguments?.[index];
        if (index !== null && argument) {
          const literals = literalsOf(argument);
          if (literals) for (const code of literals) codes.push({ code, at: where(node), via: `new ${name}` });
          else if (!(name !== ROOT_ERROR && (classes.get(name)?.codes.length ?? 0) > 0)) unresolved.push({ at: where(node), expression: argument.getText() });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  // Per-IP limit policies (`@IpLimit({ name, perMinute, code, simplified })`): their `code` is the 429's.
  for (const source of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const property = (name: string) =>
          node.properties.find((member): member is ts.PropertyAssignment => ts.isPropertyAssignment(member) && ts.isIdentifier(member.name) && member.name.text === name);
        const code = property('code');
        if (code && property('perMinute')) {
          const literals = literalsOf(code.initializer);
          if (literals) for (const literal of literals) codes.push({ code: literal, at: where(node), via: 'IP limit policy' });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { codes, unresolved };
}
