// The WebAssembly engine's two imports (cpp/capi/nutcore.cc, docs/web.md): a search running inside
// nc_engine_send yields to the host's event loop, handing it the replies so far, and then takes the
// request lines that came meanwhile. The host is the object Module.nutcoreHost (the Web Worker's,
// python/nutcore/web/static/worker.js): replies(text) gets reply lines joined by newlines, take()
// gives the next request line or null. Without a host the search just lets the event loop run.
mergeInto(LibraryManager.library, {
  nutcore_host_yield: function (replies) {
    const text = UTF8ToString(replies);
    return Asyncify.handleSleep(function (wakeUp) {
      const host = Module["nutcoreHost"];
      if (host && text) host.replies(text);
      // Back as soon as the messages already queued have run: a message channel does not wait
      // the 4 ms that browsers add to nested timeouts.
      if (typeof MessageChannel == "function") {
        const channel = new MessageChannel();
        channel.port1.onmessage = function () {
          channel.port1.close();
          wakeUp();
        };
        channel.port2.postMessage(0);
      } else {
        setTimeout(wakeUp, 0);
      }
    });
  },
  nutcore_host_take: function (buffer, capacity) {
    const host = Module["nutcoreHost"];
    if (Module["nutcorePendingLine"] == null) Module["nutcorePendingLine"] = host ? host.take() : null;
    const line = Module["nutcorePendingLine"];
    if (line == null) return 0;
    const needed = lengthBytesUTF8(line) + 1;
    if (needed > capacity) return -needed;
    Module["nutcorePendingLine"] = null;
    return stringToUTF8(line, buffer, capacity);
  },
});
