/** Matched words marked from the server's offsets: text only, whatever the catalog holds and whatever the offsets say. */
import { expect } from '@esm-bundle/chai';
import { html, render } from 'lit';
import { cleanRanges, fillMarked, renderMarked } from '../src/highlight.js';
import { fillCardTemplate, renderDefaultCard } from '../src/product-card.js';

describe('highlights', () => {
  it('wraps the ranges in <mark> and keeps markup in titles as text', () => {
    const title = '<img src=x onerror=alert(1)> Hanging Heart';
    const holder = document.createElement('div');
    render(html`${renderMarked(title, cleanRanges([[29, 36], [37, 42]], title.length))}`, holder);
    expect([...holder.querySelectorAll('mark')].map((mark) => mark.textContent)).to.deep.equal(['Hanging', 'Heart']);
    expect(holder.querySelector('img')).to.equal(null);
    expect(holder.textContent).to.equal(title);
  });

  it('drops offsets that are not whole numbers inside the text, and merges overlaps', () => {
    expect(cleanRanges([[5, 2], [-3, 2], [1.5, 3], ['0', 2], [8, 99], [0, 3], [2, 5]], 10)).to.deep.equal([
      [0, 5],
      [8, 10],
    ]);
    expect(cleanRanges('0,3', 10)).to.deep.equal([]);
  });

  it('marks titles of the default card and of a shop template', () => {
    const card = { productId: 'p', title: 'Heart <b>mug</b>', price: '', attributes: {}, titleMarks: [[0, 5]] as Array<[number, number]> };
    const holder = document.createElement('div');
    render(renderDefaultCard(card), holder);
    expect(holder.querySelector('[part=title] mark')!.textContent).to.equal('Heart');
    expect(holder.querySelector('b')).to.equal(null);
    const template = document.createElement('template');
    template.innerHTML = '<h3 data-field="title"></h3>';
    const filled = fillCardTemplate(template, card);
    expect(filled.querySelector('h3')!.innerHTML).to.equal('<mark>Heart</mark> &lt;b&gt;mug&lt;/b&gt;');
    const element = document.createElement('span');
    fillMarked(element, 'abc', []);
    expect(element.innerHTML).to.equal('abc');
  });
});
