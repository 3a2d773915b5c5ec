// The demo shop's own script: a basket in localStorage and the checkout. Discovery Kit sees the basket
// through the data-discovery-* attributes on the buttons and the order through window.discoveryLayer.
(function () {
  'use strict';
  var KEY = 'demo-shop-basket';

  function load() {
    try {
      var items = JSON.parse(localStorage.getItem(KEY) || '[]');
      return Array.isArray(items) ? items : [];
    } catch {
      return [];
    }
  }
  function save(items) {
    localStorage.setItem(KEY, JSON.stringify(items));
    render();
  }
  function money(value) {
    return new Intl.NumberFormat(document.documentElement.lang || 'en-GB', { style: 'currency', currency: 'GBP' }).format(value);
  }

  function add(button) {
    var items = load();
    var id = button.getAttribute('data-discovery-add-to-cart');
    var line = items.find(function (i) { return i.id === id; });
    if (line) line.quantity += 1;
    else items.push({ id: id, title: button.getAttribute('data-cart-title') || id, photo: button.getAttribute('data-cart-photo') || '', price: Number(button.getAttribute('data-discovery-price')) || 0, quantity: 1 });
    save(items);
    var status = document.querySelector('.added');
    if (status) status.hidden = false;
  }

  function remove(id) {
    save(load().filter(function (i) { return i.id !== id; }));
  }

  function decrement(id) {
    var items = load();
    var line = items.find(function (i) { return i.id === id; });
    if (!line) return;
    line.quantity -= 1;
    save(items.filter(function (i) { return i.quantity > 0; }));
  }

  // UK prices include VAT at 20%; delivery is free from £30 of goods.
  var DELIVERY = 3.95;
  var FREE_DELIVERY_FROM = 30;
  var VAT_RATE = 0.2;

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function stepButton(text, label, attributes) {
    var button = element('button', 'step', text);
    button.type = 'button';
    button.setAttribute('aria-label', label);
    Object.keys(attributes).forEach(function (name) { button.setAttribute(name, attributes[name]); });
    return button;
  }

  // Built with DOM calls, not markup strings: titles come from the catalog.
  function line(item) {
    var li = element('li', 'line');
    var img = element('img');
    img.src = item.photo;
    img.alt = '';
    img.width = 72;
    img.height = 72;
    var link = element('a', 'line-title', item.title);
    link.href = '/shop/product.html?id=' + encodeURIComponent(item.id);
    var unit = element('span', 'unit', money(item.price) + ' each');
    var stepper = element('span', 'stepper');
    var fewer = item.quantity === 1
      ? stepButton('−', 'Remove ' + item.title, { 'data-cart-decrement': item.id, 'data-discovery-remove-from-cart': item.id })
      : stepButton('−', 'One fewer ' + item.title, { 'data-cart-decrement': item.id });
    var more = stepButton('+', 'One more ' + item.title, { 'data-discovery-add-to-cart': item.id, 'data-discovery-price': String(item.price), 'data-cart-title': item.title, 'data-cart-photo': item.photo });
    var count = element('output', 'quantity', String(item.quantity));
    count.setAttribute('aria-label', 'Quantity of ' + item.title);
    stepper.append(fewer, count, more);
    var sum = element('span', 'line-total', money(item.price * item.quantity));
    var removeButton = stepButton('Remove', 'Remove ' + item.title + ' from the basket', { 'data-cart-remove': item.id, 'data-discovery-remove-from-cart': item.id });
    removeButton.className = 'remove';
    var text = element('span', 'line-text');
    text.append(link, unit);
    li.append(img, text, stepper, sum, removeButton);
    return li;
  }

  function row(label, value, className) {
    var div = element('div', className);
    div.append(element('dt', '', label), element('dd', '', value));
    return div;
  }

  function render() {
    var items = load();
    var count = items.reduce(function (n, i) { return n + i.quantity; }, 0);
    document.querySelectorAll('[data-cart-count]').forEach(function (el) { el.textContent = String(count); });
    document.querySelectorAll('[data-cart-checkout]').forEach(function (el) { el.hidden = items.length === 0; });
    document.querySelectorAll('[data-cart-submit]').forEach(function (el) { el.disabled = items.length === 0; });
    document.querySelectorAll('[data-cart-view]').forEach(function (view) {
      view.textContent = '';
      if (items.length === 0) {
        var empty = element('p', 'empty', 'Your basket is empty. ');
        var browse = element('a', '', 'Find something you like');
        browse.href = '/shop/';
        empty.appendChild(browse);
        view.appendChild(empty);
        return;
      }
      var list = element('ul', 'basket');
      var subtotal = 0;
      items.forEach(function (item) {
        subtotal += item.price * item.quantity;
        list.appendChild(line(item));
      });
      var delivery = subtotal >= FREE_DELIVERY_FROM ? 0 : DELIVERY;
      var total = subtotal + delivery;
      var sums = element('dl', 'sums');
      sums.append(
        row('Subtotal', money(subtotal)),
        row('Delivery', delivery === 0 ? 'Free' : money(delivery) + ' (free from ' + money(FREE_DELIVERY_FROM) + ')'),
        row('Total', money(total), 'total'),
        row('Includes VAT (20%)', money(total - total / (1 + VAT_RATE)), 'vat')
      );
      view.append(list, sums);
    });
  }

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var addButton = target.closest('[data-discovery-add-to-cart]');
    if (addButton) add(addButton);
    var removeButton = target.closest('[data-cart-remove]');
    if (removeButton) remove(removeButton.getAttribute('data-cart-remove'));
    var fewerButton = target.closest('[data-cart-decrement]');
    if (fewerButton) decrement(fewerButton.getAttribute('data-cart-decrement'));
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-checkout-form')) return;
    event.preventDefault();
    var items = load();
    if (items.length === 0) return;
    var orderId = 'o-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 6);
    // The data layer works before the embed has loaded: it reads the queued calls when it starts.
    window.discoveryLayer = window.discoveryLayer || [];
    window.discoveryLayer.push(['purchase', {
      orderId: orderId,
      currency: 'GBP',
      items: items.map(function (i) { return { productId: i.id, price: i.price, quantity: i.quantity }; }),
    }]);
    save([]);
    form.hidden = true;
    var done = document.querySelector('[data-order-done]');
    if (done) {
      done.querySelector('[data-order-id]').textContent = orderId;
      done.hidden = false;
      // Asked for only now, after the order went to the data layer; the widget's own title says what it is,
      // with no claim that it already knows this order (the purchase may still be on its way).
      var holder = done.querySelector('[data-after-order-widget]');
      if (holder) {
        var widget = document.createElement('discovery-recommendations');
        widget.setAttribute('widget-id', holder.getAttribute('data-after-order-widget'));
        holder.appendChild(widget);
      }
    }
  });

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', render);
  else render();
})();
