/** <discovery-email-recommendations>: the pasted HTML links to the real server's e-mail endpoints, escaped and encoded. */
import { expect } from '@esm-bundle/chai';
import { sendMouse } from '@web/test-runner-commands';
import { configureToolkit, defineElements, emailRecommendationsHtml } from '../src/index.js';
import type { DiscoveryEmailRecommendations } from '../src/index.js';
import { mount, server, until } from './helpers.js';

const parse = (markup: string) => new DOMParser().parseFromString(markup, 'text/html');

describe('<discovery-email-recommendations>', () => {
  before(() => {
    configureToolkit({ apiBase: server() });
    defineElements();
  });
  afterEach(() => document.querySelectorAll('discovery-email-recommendations').forEach((element) => element.remove()));

  it('names its preview, code and copy button', async () => {
    const element = mount<DiscoveryEmailRecommendations>('<discovery-email-recommendations widget-id="demo-popular" datasource-id="crm" user-id="u0"></discovery-email-recommendations>');
    await element.updateComplete;
    const root = element.shadowRoot!;
    expect(root.querySelector('iframe')!.title).to.equal('E-mail preview');
    expect(root.querySelector('textarea')!.getAttribute('aria-label')).to.equal('E-mail HTML');
    expect(root.querySelector('button')!.textContent).to.equal('Copy HTML');
    expect(root.querySelector('[part=status]')!.getAttribute('role')).to.equal('status');
  });

  it('offers the e-mail HTML: a table of linked photos, one per position, with encoded user ids', async () => {
    const element = mount<DiscoveryEmailRecommendations>(
      `<discovery-email-recommendations widget-id="demo-popular" datasource-id="crm" user-id='ann+1@x.example/?#"&gt;&lt;script&gt;' count="3" columns="2"></discovery-email-recommendations>`,
    );
    await element.updateComplete;
    const code = element.shadowRoot!.querySelector('textarea')!;
    expect(code.readOnly).to.equal(true);
    expect(code.value).to.equal(element.emailHtml);
    const pasted = parse(code.value);
    expect(pasted.querySelector('script')).to.equal(null);
    expect(pasted.querySelectorAll('table[role=presentation] tr')).to.have.length(2);
    const user = encodeURIComponent('ann+1@x.example/?#"><script>');
    expect(user).to.equal('ann%2B1%40x.example%2F%3F%23%22%3E%3Cscript%3E');
    const links = [...pasted.querySelectorAll('a')];
    expect(links.map((link) => link.getAttribute('href'))).to.deep.equal(
      [1, 2, 3].map((position) => `${server()}/widget/demo-popular/recommendations/crm/${user}/${position}/redirect.html`),
    );
    const images = links.map((link) => link.querySelector('img')!);
    expect(images.map((image) => image.getAttribute('src'))).to.deep.equal(
      [1, 2, 3].map((position) => `${server()}/widget/demo-popular/recommendations/crm/${user}/${position}/photo.png`),
    );
    expect(images.map((image) => [image.getAttribute('width'), image.getAttribute('height')])).to.deep.equal([
      ['128', '128'],
      ['128', '128'],
      ['128', '128'],
    ]);
  });

  it('uses the products\' titles as alt texts of the copied HTML, and keeps the block within 600 px', async () => {
    const element = mount<DiscoveryEmailRecommendations>(
      '<discovery-email-recommendations widget-id="demo-popular" datasource-id="crm" user-id="alt@x.example" count="4" columns="4" image-size="200"></discovery-email-recommendations>',
    );
    const response = await fetch(`${server()}/widget/demo-popular/recommendations/crm/alt%40x.example?limit=4`);
    const titles = ((await response.json()) as { recommendations: Array<{ product: { title: string } }> }).recommendations.map((entry) => entry.product.title);
    expect(titles).to.have.length(4);
    await until(() => element.titles.length === 4, 'the titles');
    await element.updateComplete;
    const pasted = parse(element.shadowRoot!.querySelector('textarea')!.value);
    expect([...pasted.querySelectorAll('img')].map((image) => image.alt)).to.deep.equal(titles);
    const table = pasted.querySelector('table')!;
    expect(Number(table.getAttribute('width'))).to.be.at.most(600);
    const sizes = [...pasted.querySelectorAll('img')].map((image) => Number(image.getAttribute('width')));
    expect(sizes.reduce((sum, size) => sum + size + 16, 0)).to.be.at.most(600);
    // The preview as a mail client lays it out, at desktop width and on a phone.
    const frame = element.shadowRoot!.querySelector('iframe')!;
    const shown = await until(() => frame.contentDocument?.querySelector('table'), 'the preview');
    expect(shown.getBoundingClientRect().width).to.be.at.most(600);
    element.style.width = '360px';
    await until(() => shown.getBoundingClientRect().width <= 360 - 16, 'the block fitted to a phone');
  });

  it('previews the block with the photos the server serves for that user', async () => {
    const element = mount<DiscoveryEmailRecommendations>('<discovery-email-recommendations widget-id="demo-popular" datasource-id="crm" user-id="preview@x.example" count="2"></discovery-email-recommendations>');
    await element.updateComplete;
    const frame = element.shadowRoot!.querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).to.equal('allow-same-origin');
    const images = await until(() => {
      const found = [...(frame.contentDocument?.querySelectorAll('img') ?? [])];
      return found.length === 2 && found.every((image) => image.complete && image.naturalWidth > 0) && found;
    }, 'the preview photos');
    expect(images[0]!.src).to.equal(`${server()}/widget/demo-popular/recommendations/crm/preview%40x.example/1/photo.png`);
  });

  it('keeps an e-mail platform merge tag as written, and escapes it for HTML', () => {
    const markup = emailRecommendationsHtml({
      apiBase: 'https://api.example/',
      widgetId: 'w 1',
      datasourceId: 'crm',
      userId: '{{ contact.id }}&"x"',
      count: 1,
      columns: 4,
      imageSize: 120,
      alt: 'For "you"',
      mergeTag: true,
    });
    expect(markup).to.contain('href="https://api.example/widget/w%201/recommendations/crm/{{ contact.id }}&amp;&quot;x&quot;/1/redirect.html"');
    expect(markup).to.contain('alt="For &quot;you&quot; 1" width="120" height="120"');
    expect(parse(markup).querySelector('a')!.getAttribute('href')).to.equal('https://api.example/widget/w%201/recommendations/crm/{{ contact.id }}&"x"/1/redirect.html');
  });

  it('copies the HTML to the clipboard', async () => {
    const element = mount<DiscoveryEmailRecommendations>('<discovery-email-recommendations widget-id="demo-popular" datasource-id="crm" user-id="u1"></discovery-email-recommendations>');
    await element.updateComplete;
    // The alt texts change the HTML once the titles arrive: copy the final one.
    await until(() => element.titles.length > 0, 'the titles');
    await element.updateComplete;
    // Records what reaches the clipboard by either path (the page may not read it back), passing it on.
    const copied: string[] = [];
    const writeText = navigator.clipboard.writeText;
    navigator.clipboard.writeText = (text: string) => {
      copied.push(text);
      return writeText.call(navigator.clipboard, text);
    };
    const onCopy = () => copied.push(String(element.shadowRoot!.querySelector('textarea')!.value));
    document.addEventListener('copy', onCopy);
    try {
      // A real click: the clipboard wants a user gesture.
      const box = element.shadowRoot!.querySelector<HTMLButtonElement>('button[part=copy]')!.getBoundingClientRect();
      await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
      await until(() => element.status !== '', 'the copy status');
    } finally {
      document.removeEventListener('copy', onCopy);
      navigator.clipboard.writeText = writeText;
    }
    await element.updateComplete;
    expect(element.shadowRoot!.querySelector('[role=status]')!.textContent).to.equal('Copied');
    expect(copied).not.to.deep.equal([]);
    expect(copied.every((text) => text === element.emailHtml)).to.equal(true);
  });

  it('renders nothing until widget, datasource and user are set', async () => {
    const element = mount<DiscoveryEmailRecommendations>('<discovery-email-recommendations widget-id="demo-popular" datasource-id="crm"></discovery-email-recommendations>');
    await element.updateComplete;
    expect(element.shadowRoot!.childElementCount).to.equal(0);
    element.userId = 'u2';
    await element.updateComplete;
    expect(element.shadowRoot!.querySelectorAll('iframe, textarea, button')).to.have.length(3);
  });
});
