package loomylin.server.kotlin

import loomylin.server.cli.Guard
import loomylin.server.launch.Launcher
import loomylin.server.launch.ServeOptions
import loomylin.server.jetty.Twin

/** The Kotlin twin's main, for running from an IDE: the default three servers plus the backend. */
object Loomylin {
    @JvmStatic
    fun main(args: Array<String>) = Guard.run { Launcher.serve(args, Twin.KOTLIN, AppServer::start) }

    /** Serves what `options` asks for with this twin's servers (their twin is already chosen). */
    @JvmStatic
    fun serve(options: ServeOptions) = Launcher.serve(options, AppServer::start)
}
