// The sandbox onramp's buy page (devnet/src/onramp/page.ts): re-quotes as the order changes, pays, and
// follows the order to its end. Plain browser JavaScript under a CSP that allows only this file; every
// value from the server goes in through textContent, never as markup.
'use strict'

const $ = (id) => document.getElementById(id)
const main = $('buy')
const form = $('order-form')

if (main && form) {
  const settleMs = Number(main.dataset.settleMs) || 3000
  const statusTexts = {
    ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: 'In progress',
    ONRAMP_TRANSACTION_STATUS_SUCCESS: 'Success',
    ONRAMP_TRANSACTION_STATUS_FAILED: 'Failed',
  }
  let quoted = true
  let paying = false
  let timer
  let asked = 0

  const say = (text) => ($('status').textContent = text)
  const money = (m) => m.value + ' ' + m.currency
  const method = () => new FormData(form).get('payment_method')

  async function call(method, path, body) {
    const init = method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) } : {}
    const res = await fetch(path, init)
    const data = await res.json().catch(() => ({}))
    if (!res.ok) throw new Error(data.message || 'HTTP ' + res.status)
    return data
  }

  function request() {
    const data = new FormData(form)
    const [currency, network] = String(data.get('asset')).split('|')
    return {
      purchase_currency: currency,
      purchase_network: network,
      payment_amount: String(data.get('payment_amount')).trim(),
      payment_currency: data.get('payment_currency'),
      payment_method: data.get('payment_method'),
      country: 'US',
    }
  }

  function showMethod() {
    const card = method() === 'CARD'
    $('card').hidden = !card
    $('bank').hidden = card
  }

  function update() {
    $('pay-button').disabled = !quoted || paying
  }

  // The newest answer wins: an older one that arrives late is dropped.
  async function requote() {
    const id = ++asked
    quoted = false
    update()
    const option = $('asset').selectedOptions[0]
    $('network').textContent = option ? option.textContent.replace(/^.* on /, '') + ' (' + request().purchase_network + ')' : '—'
    try {
      const quote = await call('POST', '/onramp/v1/buy/quote', request())
      if (id !== asked) return
      $('amount-error').textContent = ''
      $('pay').textContent = money(quote.payment_total)
      $('fee').textContent = money(quote.coinbase_fee)
      $('network-fee').textContent = money(quote.network_fee)
      $('receive').textContent = money(quote.purchase_amount)
      quoted = true
    } catch (error) {
      if (id !== asked) return
      $('amount-error').textContent = error.message
      for (const id of ['pay', 'fee', 'network-fee', 'receive']) $(id).textContent = '—'
    }
    update()
  }

  function schedule() {
    clearTimeout(timer)
    timer = setTimeout(requote, 300)
  }

  function render(order) {
    $('progress').hidden = false
    $('order-id').textContent = order.transaction_id
    $('order-status').textContent = statusTexts[order.status] || order.status
    $('order-hash').textContent = order.tx_hash || '—'
    if (order.status === 'ONRAMP_TRANSACTION_STATUS_SUCCESS')
      say('Success: ' + money(order.purchase_amount) + ' sent to ' + order.wallet_address + ' in transaction ' + order.tx_hash + '.')
    else if (order.status === 'ONRAMP_TRANSACTION_STATUS_FAILED') say('Failed: ' + order.failure_reason)
    else say('Payment in progress: waiting for your bank to settle…')
  }

  // The bank's callback: the sandbox bank settles a transfer a few seconds after it was made.
  function settleLater(order) {
    setTimeout(async () => {
      try {
        render(await call('POST', '/api/orders/' + encodeURIComponent(order.transaction_id) + '/settle'))
      } catch (error) {
        say('The order could not be followed: ' + error.message)
      }
    }, settleMs)
  }

  form.addEventListener('input', (event) => {
    if (event.target.name === 'payment_amount') schedule()
  })
  form.addEventListener('change', (event) => {
    if (event.target.name === 'payment_method') showMethod()
    if (['payment_currency', 'asset', 'payment_method'].includes(event.target.name)) requote()
  })

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (paying || !quoted) return
    paying = true
    update()
    say('Payment in progress…')
    const data = new FormData(form)
    const body = { ...request(), partner_user_id: data.get('partner_user_id'), wallet_address: data.get('wallet_address') }
    if (body.payment_method === 'CARD') Object.assign(body, { card_number: data.get('card_number'), card_expiry: data.get('card_expiry'), card_cvc: data.get('card_cvc') })
    try {
      const order = await call('POST', '/api/orders', body)
      // One order per page: the form is done once the order exists.
      for (const element of form.elements) element.disabled = true
      render(order)
      if (order.status === 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS') settleLater(order)
    } catch (error) {
      paying = false
      update()
      say('Could not pay: ' + error.message)
    }
  })

  // A tab the modal opened can close itself; one the person opened says so instead.
  $('close').addEventListener('click', () => {
    window.close()
    setTimeout(() => say('You can close this tab now.'), 100)
  })
}
