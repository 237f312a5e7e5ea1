// The WebAssembly engine's imports (cpp/capi/nutcore.cc, docs/web.md): a search running inside
// nc_engine_send hands its replies so far to the host, yields to the host's event loop, and then
// takes the request lines that came meanwhile. The host is the object Module.nutcoreHost (the one
// cpp/wasm/nutcore.js installs): replies(text) gets reply lines joined by newlines, take() gives
// the next request line or null. Both hooks are optional: replies a host does not take stay in
// the engine's queue for nc_engine_receive, and without take no line comes in during a search.
// A hook that throws must not unwind the C++ stack (no destructor would run): it is reported.
mergeInto(LibraryManager.library, {
  nutcore_host_replies: function (lines) {
    const host = Module["nutcoreHost"];
    if (!host || typeof host.replies != "function") return 0;
    try {
      host.replies(UTF8ToString(lines));
    } catch (e) {
      err("nutcoreHost.replies threw: " + e);
    }
    return 1;
  },
  nutcore_host_yield: function () {
    return Asyncify.handleSleep(function (wakeUp) {
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
    if (Module["nutcorePendingLine"] == null) {
      const host = Module["nutcoreHost"];
      let line = null;
      if (host && typeof host.take == "function") {
        try {
          line = host.take();
        } catch (e) {
          err("nutcoreHost.take threw: " + e);
        }
      }
      Module["nutcorePendingLine"] = line == null ? null : String(line);
    }
    const line = Module["nutcorePendingLine"];
    if (line == null) return 0;
    const needed = lengthBytesUTF8(line) + 1;
    if (needed > capacity) return -needed;
    Module["nutcorePendingLine"] = null;
    return stringToUTF8(line, buffer, capacity);
  },
});
