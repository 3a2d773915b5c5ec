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

  // Built with DOM calls, not markup strings: titles come from the catalog.
  function render() {
    var items = load();
    var count = items.reduce(function (n, i) { return n + i.quantity; }, 0);
    document.querySelectorAll('[data-cart-count]').forEach(function (el) { el.textContent = String(count); });
    document.querySelectorAll('[data-cart-checkout]').forEach(function (el) { el.hidden = items.length === 0; });
    document.querySelectorAll('[data-cart-view]').forEach(function (view) {
      view.textContent = '';
      if (items.length === 0) {
        var empty = document.createElement('p');
        empty.textContent = 'Your basket is empty.';
        view.appendChild(empty);
        return;
      }
      var list = document.createElement('ul');
      list.className = 'basket';
      var total = 0;
      items.forEach(function (item) {
        total += item.price * item.quantity;
        var li = document.createElement('li');
        var link = document.createElement('a');
        link.href = '/shop/product.html?id=' + encodeURIComponent(item.id);
        link.textContent = item.title;
        var qty = document.createElement('span');
        qty.textContent = ' × ' + item.quantity + ' — ' + money(item.price * item.quantity) + ' ';
        var button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'Remove';
        button.setAttribute('data-discovery-remove-from-cart', item.id);
        button.setAttribute('data-cart-remove', item.id);
        li.append(link, qty, button);
        list.appendChild(li);
      });
      var sum = document.createElement('p');
      sum.className = 'total';
      sum.textContent = 'Total: ' + money(total);
      view.append(list, sum);
    });
  }

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var addButton = target.closest('[data-discovery-add-to-cart]');
    if (addButton) add(addButton);
    var removeButton = target.closest('[data-cart-remove]');
    if (removeButton) remove(removeButton.getAttribute('data-cart-remove'));
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
