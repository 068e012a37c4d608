package loomylin.kotlin

import loomylin.cli.Guard
import loomylin.launch.Launcher
import loomylin.jetty.Twin

/** The Kotlin twin's main, for running from an IDE: the default three servers plus the backend. */
object Loomylin {
    @JvmStatic
    fun main(args: Array<String>) = Guard.run { Launcher.serve(args, Twin.KOTLIN, AppServer::start) }
}
