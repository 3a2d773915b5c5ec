/**
 * The API reference page (/docs/): reads /openapi.json from the same server and renders every
 * operation, grouped by API, with its parameters, body and responses. Bundled with the server so it
 * works offline; built with the DOM's own methods (text nodes only, so nothing in the document can
 * inject markup).
 */

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: unknown[];
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function schemaBlock(label: string, schema: unknown): HTMLElement {
  const details = el('details', {}, el('summary', {}, label), el('pre', {}, JSON.stringify(schema, null, 2)));
  return details;
}

function operationView(method: string, path: string, op: Operation, index: number): HTMLElement {
  const id = `op-${index}`;
  const section = el('section', { class: 'operation', id, 'aria-labelledby': `${id}-title` });
  section.append(el('h3', { id: `${id}-title` }, el('span', { class: `method ${method}` }, method.toUpperCase()), ' ', el('code', {}, path)));
  if (op.summary !== undefined) section.append(el('p', {}, op.summary));
  if (op.description !== undefined) section.append(el('p', { class: 'description' }, op.description));
  if (op.security !== undefined && op.security.length > 0) section.append(el('p', { class: 'auth' }, 'Needs authorisation: ', Object.keys((op.security[0] ?? {}) as object).join(' or ')));
  const params = op.parameters ?? [];
  if (params.length > 0) {
    const rows = params.map((p) => el('tr', {}, el('td', {}, el('code', {}, p.name)), el('td', {}, p.in), el('td', {}, p.required === true ? 'yes' : 'no'), el('td', {}, p.description ?? '')));
    section.append(el('table', {}, el('thead', {}, el('tr', {}, ...['Parameter', 'In', 'Required', 'Description'].map((h) => el('th', { scope: 'col' }, h)))), el('tbody', {}, ...rows)));
  }
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) if (media.schema !== undefined) section.append(schemaBlock(`Request body (${type})`, media.schema));
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const schema = Object.values(response.content ?? {})[0]?.schema;
    section.append(schema === undefined ? el('p', {}, `${status}: ${response.description ?? ''}`) : schemaBlock(`${status}: ${response.description ?? ''}`, schema));
  }
  return section;
}

async function render(root: HTMLElement): Promise<void> {
  const response = await fetch('/openapi.json');
  const doc = (await response.json()) as OpenApiDocument;
  document.title = `${doc.info.title} ${doc.info.version} — API reference`;
  const byTag = new Map<string, Array<[string, string, Operation]>>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push([method, path, op]);
    }
  }
  const filter = el('input', { id: 'filter', type: 'search', placeholder: 'path or words' });
  const nav = el('nav', { 'aria-label': 'APIs' }, el('ul', {}, ...[...byTag.keys()].map((tag) => el('li', {}, el('a', { href: `#tag-${tag}` }, tag)))));
  const main = el('main', {}, el('h1', {}, `${doc.info.title} ${doc.info.version}`), el('p', {}, doc.info.description ?? ''), el('label', { for: 'filter' }, 'Filter operations'), filter);
  let index = 0;
  for (const [tag, ops] of byTag) {
    const group = el('section', { id: `tag-${tag}`, class: 'tag', 'aria-labelledby': `tag-${tag}-title` }, el('h2', { id: `tag-${tag}-title` }, tag));
    for (const [method, path, op] of ops) group.append(operationView(method, path, op, index++));
    main.append(group);
  }
  filter.addEventListener('input', () => {
    const words = filter.value.toLowerCase();
    for (const section of main.querySelectorAll<HTMLElement>('section.operation')) section.hidden = words !== '' && !section.textContent!.toLowerCase().includes(words);
  });
  root.replaceChildren(nav, main);
}

const root = document.getElementById('reference');
if (root !== null) {
  render(root).catch(() => {
    root.replaceChildren(el('p', { role: 'alert' }, 'The API document (/openapi.json) could not be loaded.'));
  });
}
