/** The language the elements ask the server for: the page's, as HTML declares it around them. */

/** The nearest `lang` attribute around `element` (else the document's), trimmed; undefined when none is set. */
export function pageLang(element: Element): string | undefined {
  const lang = (element.closest('[lang]')?.getAttribute('lang') ?? element.ownerDocument.documentElement.lang).trim();
  return lang === '' ? undefined : lang.slice(0, 35);
}
