/**
 * The only inline scripts our pages carry. They must run before anything is drawn, so they cannot wait
 * for a module file. The server allows exactly these in its Content-Security-Policy, by their SHA-256
 * hashes computed from these very strings (the build writes them to dist/web/inline-scripts.json for
 * server/http/script-hashes.ts), never from a rendered page, so
 * an injected script, whatever it says, does not run. Change a byte here and the hash follows by itself.
 */

/**
 * docs/product.md section 6's public-page guard (/login, /signup, /forgot): a visitor who holds a token goes to
 * their own home. It applies the same rule as homeFor() in site/lib/session.ts.
 */
export const GUEST_ONLY_GUARD =
  "!function(){try{if(localStorage.getItem('token')){var u=JSON.parse(localStorage.getItem('user')||'null');location.replace(u&&u.user_type===1?'/admin/dashboard':'/dashboard')}}catch(e){}}()";

/**
 * The header's signed-in state ("My books" for members only) and its logout button, drawn right after the
 * header's markup. On a reader page, Login and Signup carry the chapter as `next`, so that signing in or up
 * from the header comes back to it (the sign-in pages check it with safeNextPath). Logout tells the service
 * worker first, so it stops serving the member's downloads at once (docs/offline.md). The phone's menu
 * button says whether its popover is open (aria-expanded), whichever way it opened or closed; the keyboard
 * leaving the menu closes it (an open menu must not cover what the focus moved to).
 */
export const HEADER_STATE =
  "(function(){var s;try{s=localStorage}catch(e){}function t(){var i=!!(s&&s.getItem('token')),a;try{a=JSON.parse(s.getItem('user')).user_type===1}catch(e){}document.querySelectorAll('[data-auth]').forEach(function(e){var v=e.getAttribute('data-auth');e.hidden=v=='member'?!(i&&!a):v=='admin'?!(i&&a):(v=='in')!=i});document.querySelector('[data-home]').href=a?'/admin/dashboard':'/dashboard';document.querySelector('[data-books]').href=a?'/admin/books':'/books';if(/^\\/read\\//.test(location.pathname))document.querySelectorAll('[data-auth=out] a').forEach(function(l){l.href=l.pathname+'?next='+encodeURIComponent(location.pathname)})}t();addEventListener('pageshow',t);document.addEventListener('click',function(e){if(e.target.closest&&e.target.closest('[data-logout]')){if(s){s.removeItem('token');s.removeItem('user')}try{navigator.serviceWorker.controller.postMessage({type:'SIGNED_OUT'})}catch(e){}location.assign('/login')}});var m=document.getElementById('site-menu'),b=document.querySelector('[popovertarget=site-menu]');if(m&&b){m.addEventListener('toggle',function(e){b.setAttribute('aria-expanded',e.newState=='open')});m.addEventListener('focusout',function(e){var r=e.relatedTarget;try{if(r&&r!==b&&!m.contains(r)&&m.matches(':popover-open'))m.hidePopover()}catch(x){}})}})();";

/**
 * The theme, text size and line spacing (site/lib/appearance.ts), first in every page's <head>: set on
 * <html> before anything is drawn, so a page (cached ones too) never flashes another theme nor moves when
 * the reader's size applies. The device's light or dark until the person chooses a theme.
 */
export const APPEARANCE =
  "!function(){var d=document.documentElement,a={};try{a=JSON.parse(localStorage.getItem('appearance'))||{}}catch(e){}var t=a.theme;d.setAttribute('data-theme',t=='light'||t=='dark'||t=='sepia'?t:matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light');if(a.textSize>=1&&a.textSize<=4)d.setAttribute('data-text-size',a.textSize);if(a.lineSpacing>=1&&a.lineSpacing<=3)d.setAttribute('data-line-spacing',a.lineSpacing)}()";

export const INLINE_SCRIPTS = [APPEARANCE, GUEST_ONLY_GUARD, HEADER_STATE];
